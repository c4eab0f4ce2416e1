#!/usr/bin/env bash
# bench-batch.sh: how batch work scales with -j, and what nightly costs over a
# big folder, first and second run (issue 16).
#
# usage: scripts/bench-batch.sh DATA_DIR
#
# DATA_DIR/compact  200 generated sessions of 1–4 MB (about 500 MB), made if missing
# DATA_DIR/fleet10k 10,000 generated sessions of 5–90 KB (about 400 MB), made if missing
#
# Environment:
#   PITOOL=PATH  the binary to measure (default: built from this checkout)
#   ROUNDS=N     interleaved -j1/-j2 rounds (default 3)
#
# Every writing run works on a fresh copy in a mktemp folder; DATA_DIR is
# only read. Prints per run wall, user+sys CPU and peak RSS; for -j, the
# throughput ratio j2/j1 of each round (wall) and the CPU per file, which a
# loaded machine disturbs less than the wall time.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: scripts/bench-batch.sh DATA_DIR}
rounds=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${PITOOL:-}" ]; then
	go build -o "$work/pitool" "$repo/cmd/pitool"
	PITOOL=$work/pitool
fi
go build -o "$work/gensession" "$repo/bench/cmd/gensession"

gen_fleet() { # 10,000 small sessions in 100 project folders
	local i d f fl
	for i in $(seq 0 9999); do
		d=$data/fleet10k/p$((i % 100))
		f=$d/2026-01-01T00-00-00-000Z_s$i.jsonl
		[ -s "$f" ] && continue
		mkdir -p "$d"
		fl=""
		[ $((i % 7)) = 0 ] && fl="-tool-heavy"
		# shellcheck disable=SC2086
		"$work/gensession" -entries $((8 + i % 90)) -tool-result-bytes 400 -seed $((i + 1)) $fl -o "$f" 2>/dev/null
	done
}
gen_compact() { # 200 sessions of 1–4 MB, some branched and compacted
	local i f fl
	mkdir -p "$data/compact"
	for i in $(seq 1 200); do
		f=$data/compact/s$i.jsonl
		[ -s "$f" ] && continue
		fl=""
		[ $((i % 5)) = 0 ] && fl="-tool-heavy"
		[ $((i % 3)) = 0 ] && fl="$fl -compaction-every 300 -branch-every 80"
		# shellcheck disable=SC2086
		"$work/gensession" -size $((1 + i % 4))MB -seed "$i" $fl -o "$f" 2>/dev/null
	done
}
gen_fleet
gen_compact

measure() { # prints "wall cpu rss_mib" of one run, its output dropped
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
	awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' <(tail -1 "$work/time")
}
ratios() { # wall1 wall2 cpu1 cpu2
	awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
		printf "  throughput -j2 / -j1: %.2fx wall; CPU per file -j2 / -j1: %.2f (2 idle cores would give up to %.2fx)\n", a / b, d / c, 2 * c / d }'
}
row() { # name files mb wall cpu rss
	awk -v n="$1" -v f="$2" -v mb="$3" -v w="$4" -v c="$5" -v r="$6" 'BEGIN {
		printf "%-30s %5d files %5.0f MB  wall %6.2fs  %6.1f MB/s  cpu %6.2fs  %5.2f ms cpu/file  peak %4d MiB\n",
			n, f, mb, w, mb / w, c, 1000 * c / f, r }'
}

files=$(find "$data/compact" -name '*.jsonl' | wc -l)
mb=$(du -sm "$data/compact" | cut -f1)
cat "$data"/compact/*.jsonl >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $PITOOL"
echo
echo "compact --plan, -j1 and -j2 interleaved:"
for r in $(seq 1 "$rounds"); do
	read -r w1 c1 r1 < <(measure "$PITOOL" compact --plan -j 1 "$data/compact")
	read -r w2 c2 r2 < <(measure "$PITOOL" compact --plan -j 2 "$data/compact")
	row "plan -j1 (round $r)" "$files" "$mb" "$w1" "$c1" "$r1"
	row "plan -j2 (round $r)" "$files" "$mb" "$w2" "$c2" "$r2"
	ratios "$w1" "$w2" "$c1" "$c2"
done

echo
echo "compact (real, extractive summarizer, every file due), -j1 and -j2 interleaved, each on a fresh copy:"
compact_copy() { rm -rf "$work/c"; cp -r "$data/compact" "$work/c"; sync; }
for r in $(seq 1 "$rounds"); do
	compact_copy
	read -r w1 c1 r1 < <(measure "$PITOOL" compact -j 1 --min-idle 0 --even-if-not-due "$work/c")
	compact_copy
	read -r w2 c2 r2 < <(measure "$PITOOL" compact -j 2 --min-idle 0 --even-if-not-due "$work/c")
	row "compact -j1 (round $r)" "$files" "$mb" "$w1" "$c1" "$r1"
	row "compact -j2 (round $r)" "$files" "$mb" "$w2" "$c2" "$r2"
	ratios "$w1" "$w2" "$c1" "$c2"
done
rm -rf "$work/c"

echo
echo "nightly -j2 over a copy of $data/fleet10k, first and second run (REPORT.state):"
cp -r "$data/fleet10k" "$work/f"
files=$(find "$work/f" -name '*.jsonl' | wc -l)
mb=$(du -sm "$work/f" | cut -f1)
sleep 1 # the copies' ctime must settle before the state file records them
read -r w1 c1 r1 < <(measure "$PITOOL" nightly -j 2 --min-idle 0 --report "$work/report.json" "$work/f")
row "nightly, first run" "$files" "$mb" "$w1" "$c1" "$r1"
read -r w2 c2 r2 < <(measure "$PITOOL" nightly -j 2 --min-idle 0 --report "$work/report.json" "$work/f")
row "nightly, second run" "$files" "$mb" "$w2" "$c2" "$r2"
awk -v a="$w1" -v b="$w2" 'BEGIN { printf "  second / first: %.1f%%\n", 100 * b / a }'
