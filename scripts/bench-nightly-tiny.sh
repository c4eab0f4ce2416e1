#!/usr/bin/env bash
# bench-nightly-tiny.sh: nightly's fixed cost per file (issue 28): nightly
# over 10,000 tiny sessions (2 entries each), first and second run, beside
# pitool ls over the same folder.
#
# usage: scripts/bench-nightly-tiny.sh [DATA_DIR]
#
# DATA_DIR/tiny10k: 10,000 copies of one generated 2-entry session in 100
# project folders, an hour old; made if missing (default DATA_DIR: a mktemp
# folder, removed after). Every round copies it to a fresh mktemp folder,
# then runs, interleaved: ls, nightly (first run, with --report so that it
# keeps its state file), nightly again (second run, SECOND_RUNS times in a
# row: its mean, since GNU time counts CPU in hundredths of a second and a
# second run takes a few of them). Prints each run's wall, user+sys CPU and
# peak RSS, then the median of the rounds and the ratios the issue sets
# goals for: first/ls <= 10, second/first <= 5%.
#
# Environment:
#   PITOOL=PATH  the binary to measure (default: built from this checkout)
#   ROUNDS=N     rounds (default 3)
#   SECOND_RUNS=N  second runs timed together per round (default 10)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=${1:-$work/data}
rounds=${ROUNDS:-3}
second_runs=${SECOND_RUNS:-10}
if [ -z "${PITOOL:-}" ]; then
	go build -o "$work/pitool" "$repo/cmd/pitool"
	PITOOL=$work/pitool
fi

gen() {
	[ -d "$data/tiny10k/p99" ] && return
	go build -o "$work/gensession" "$repo/bench/cmd/gensession"
	"$work/gensession" -entries 2 -seed 1 -o "$work/tiny.jsonl" 2>/dev/null
	local p i
	for p in $(seq 0 99); do mkdir -p "$data/tiny10k/p$p"; done
	for i in $(seq 0 9999); do
		cp "$work/tiny.jsonl" "$data/tiny10k/p$((i % 100))/2026-01-01T00-00-00-000Z_s$i.jsonl"
	done
	find "$data/tiny10k" -type f -exec touch -d '1 hour ago' {} +
}

measure() { # NAME N CMD...: runs CMD N times, prints "NAME wall cpu rss_kb" (per run), the output dropped
	local name=$1 n=$2 wall user sys rss
	shift 2
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' sh -c 'n=$1; shift; while [ "$n" -gt 0 ]; do "$@" || exit; n=$((n - 1)); done' sh "$n" "$@" >/dev/null 2>&1
	read -r wall user sys rss <"$work/time"
	printf '%s %.3f %.3f %s\n' "$name" "$(echo "$wall / $n" | bc -l)" "$(echo "($user + $sys) / $n" | bc -l)" "$rss"
}

gen
echo "# $(uptime)"
printf '%-8s %8s %8s %10s\n' run wall_s cpu_s rss_kb
results=$work/results
for r in $(seq 1 "$rounds"); do
	run=$work/run$r
	cp -a "$data/tiny10k" "$run"
	sleep 1 # the copy's last changes settle (see nightly_state.go, stateSettle)
	measure ls 1 "$PITOOL" ls "$run"
	measure first 1 "$PITOOL" nightly --report "$work/r$r.json" "$run"
	measure second "$second_runs" "$PITOOL" nightly --report "$work/r$r.json" "$run"
	grep -o '"remembered":[0-9]*,"files"' "$work/r$r.json" >&2
	rm -rf "$run"
done | tee "$results" | awk '{printf "%-8s %8s %8s %10s\n", $1, $2, $3, $4}'
echo "# $(uptime)"
median() { grep "^$1 " "$results" | awk '{print $'"$2"'}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for m in ls first second; do
	printf 'median %-7s wall %6s s  cpu %6s s\n' "$m" "$(median $m 2)" "$(median $m 3)"
done
awk -v ls="$(median ls 2)" -v first="$(median first 2)" -v second="$(median second 2)" \
	-v lsc="$(median ls 3)" -v firstc="$(median first 3)" -v secondc="$(median second 3)" 'BEGIN {
	printf "first/ls   wall %.1fx  cpu %.1fx (goal <= 10x)\n", first / ls, firstc / lsc
	printf "second/first wall %.1f%%  cpu %.1f%% (goal <= 5%%)\n", 100 * second / first, 100 * secondc / firstc
}'
