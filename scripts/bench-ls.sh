#!/usr/bin/env bash
# bench-ls.sh: pitool ls against Pi's own listing (pi-ref ls: SessionManager.listAll of Pi
# 1.6.0) on a folder of 10,000 tiny sessions and on a folder of about 5 GB.
#
# usage: scripts/bench-ls.sh DATA_DIR
#
# DATA_DIR/tiny10k (10,000 sessions of 2-10 entries, 2-9 KB each) and DATA_DIR/big5g (200
# sessions of 25 MiB, 5.2 GB in all) are generated with bench/cmd/gensession when absent
# (about 20 minutes for both on a loaded 2-core machine; reruns reuse them). Every file is
# read once before timing, so both tools read from the page cache. Each tool then lists each
# folder ROUNDS times; the table gives the median wall and CPU (user + system) times and the
# largest peak RSS (GNU /usr/bin/time), pitool's speed-up in both, and whether pitool ls --json and pi-ref ls give the same
# rows (id, cwd, name, parent, created, modified, message count, first message, path) in the
# same order. A last line compares pitool's peak RSS on the two folders: memory that does not
# grow with the bytes listed (0.05 GB against 5.2 GB).
#
# Environment:
#   ROUNDS=N         runs per tool and folder (default 3)
#   BEFORE=PATH      another pitool binary to time too (e.g. one built from an older commit)
#   PI_REF=PATH      the reference runner (default scripts/pi-ref, installed before the timing)
#   ONLY=tiny|big    one folder only
#
# Exit status: 0 table printed (a failed run shows as "failed"), 1 setup failed, 2 usage.
set -euo pipefail

die() { echo "bench-ls: error: $*" >&2; exit 1; }
note() { echo "bench-ls: $*" >&2; }

[[ $# -eq 1 ]] || { echo "usage: scripts/bench-ls.sh DATA_DIR" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
data=$(mkdir -p "$1" && cd "$1" && pwd)
rounds=${ROUNDS:-3}
pi_ref=${PI_REF:-$repo/scripts/pi-ref}
timer=/usr/bin/time
[[ -x $timer ]] || die "$timer is missing (install it: apt-get install -y time)"
command -v python3 >/dev/null || die "python3 is needed to compare the rows"
[[ -n ${PI_REF:-} ]] || "$pi_ref" --install >/dev/null || die "scripts/pi-ref could not install Pi"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-ls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
(cd "$repo" && go build -o "$tmp/pitool" ./cmd/pitool && go build -o "$tmp/gensession" ./bench/cmd/gensession) ||
	die "go build failed"

# generate_tiny fills $data/tiny10k: 10,000 sessions in 20 cwds, 2-10 entries each.
generate_tiny() {
	local dir=$data/tiny10k i f
	mkdir -p "$dir"
	for i in $(seq 0 9999); do
		f=$dir/2026-01-01T00-00-00-000Z_s$(printf %05d "$i").jsonl
		[[ -s $f ]] && continue
		"$tmp/gensession" -entries $((2 + i % 9)) -tool-result-bytes 200 -seed $((i + 1)) \
			-cwd /home/dev/p$((i % 20)) -o "$f" 2>/dev/null
	done
}

# generate_big fills $data/big5g: 200 sessions of 25 MiB, every 5th tool-heavy, every 3rd
# branched and compacted.
generate_big() {
	local dir=$data/big5g i f flags
	mkdir -p "$dir"
	for i in $(seq 0 199); do
		f=$dir/2026-01-01T00-00-00-000Z_b$(printf %03d "$i").jsonl
		[[ -s $f ]] && continue
		flags=()
		((i % 5 == 0)) && flags+=(-tool-heavy)
		((i % 3 == 0)) && flags+=(-branch-every 200 -compaction-every 1000)
		"$tmp/gensession" -size 25MB -seed $((i + 1)) -cwd /home/dev/p$((i % 20)) "${flags[@]}" -o "$f" 2>/dev/null
	done
}

# measure NAME CMD...: runs CMD ROUNDS times with stdout to $tmp/NAME.out; prints
# "MEDIAN_WALL_SECONDS MAX_RSS_KB MEDIAN_CPU_SECONDS" (CPU: user + system), or "failed".
measure() {
	local name=$1 r
	shift
	: >"$tmp/$name.times"
	for ((r = 0; r < rounds; r++)); do
		if ! "$timer" -f '%e %M %U %S' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.log"; then
			echo failed
			return
		fi
		tail -1 "$tmp/$name.time" >>"$tmp/$name.times"
	done
	awk '{print $1, $2, $3 + $4}' "$tmp/$name.times" | sort -n -k3 | awk '{print $3}' >"$tmp/$name.cpu"
	sort -n "$tmp/$name.times" | awk -v n="$rounds" -v cpu="$(awk -v n="$rounds" 'NR == int((n+1)/2)' "$tmp/$name.cpu")" \
		'{t[NR]=$1; if ($2>m) m=$2} END {print t[int((n+1)/2)], m, cpu}'
}

# same_rows PITOOL_JSON PI_JSON: "yes (N rows)" when the rows agree field by field and in order.
same_rows() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
keys = ["id", "cwd", "name", "parentSessionPath", "created", "modified", "messageCount", "firstMessage", "path"]
def rows(path, listed):
    with open(path) as f:
        return [tuple(r.get(k) for k in keys) for r in json.load(f) if listed(r)]
got = rows(sys.argv[1], lambda r: "path" in r)
want = rows(sys.argv[2], lambda r: True)
if got == want:
    print("yes (%d rows)" % len(want))
else:
    bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
    print("NO: %d vs %d rows, first difference at row %d" % (len(got), len(want), bad))
EOF
}

# ratios REF MEASURED: pi-ref's wall and CPU time over the other's, "W× | C×".
ratios() {
	awk -v r="$1" -v m="$2" 'BEGIN { split(r, a, " "); split(m, b, " ")
		if (b[1] > 0 && b[3] > 0) printf "%.1f× | %.1f×", a[1] / b[1], a[3] / b[3]; else print "- | -" }'
}

run_folder() {
	local label=$1 dir=$2 files bytes ref pit before ratio
	files=$(find "$dir" -name '*.jsonl' | wc -l)
	bytes=$(du -sb "$dir" | cut -f1)
	find "$dir" -name '*.jsonl' -print0 | xargs -0 cat >/dev/null # into the page cache
	note "$label: $files files, $bytes bytes"
	ref=$(measure "$label-ref" "$pi_ref" ls "$dir")
	pit=$(measure "$label-pitool" "$tmp/pitool" ls --json "$dir")
	printf '| %s | %s files, %.2f GB | pi-ref ls | %s s | %s KB | %s s | | | |\n' "$label" "$files" "$(awk -v b="$bytes" 'BEGIN{print b/1e9}')" ${ref}
	printf '| | | pitool ls --json | %s s | %s KB | %s s | %s | %s |\n' ${pit} "$(ratios "$ref" "$pit")" "$(same_rows "$tmp/$label-pitool.out" "$tmp/$label-ref.out")"
	if [[ $pit != failed ]]; then
		read -r _ peak _ <<<"$pit"
		peaks+=("$label $peak KB")
	fi
	if [[ -n ${BEFORE:-} ]]; then
		before=$(measure "$label-before" "$BEFORE" ls --json "$dir")
		printf '| | | before: %s | %s s | %s KB | %s s | %s | %s |\n' "$(basename "$BEFORE")" ${before} "$(ratios "$ref" "$before")" "$(same_rows "$tmp/$label-before.out" "$tmp/$label-ref.out")"
	fi
}

peaks=()
echo "| folder | size | command | wall (median of $rounds) | peak RSS | CPU (user+sys) | wall vs pi-ref | CPU vs pi-ref | rows equal to Pi's |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
if [[ ${ONLY:-tiny} == tiny ]]; then
	generate_tiny
	run_folder tiny10k "$data/tiny10k"
fi
if [[ ${ONLY:-big} == big ]]; then
	generate_big
	run_folder big5g "$data/big5g"
fi
if ((${#peaks[@]} > 0)); then
	echo
	echo "pitool ls peak RSS: ${peaks[*]}"
fi
