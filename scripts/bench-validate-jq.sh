#!/usr/bin/env bash
# bench-validate-jq.sh: pitool validate beside `jq -c .` on the same generated sessions, in
# interleaved rounds (pitool, jq, pitool, jq …), for issue 28's goal: validate at least 10×
# jq. Prints one row per run, then the medians and the ratios of the medians.
#
# usage: scripts/bench-validate-jq.sh DATA_DIR
#
# The sessions are generated into DATA_DIR when absent (bench/cmd/gensession, the recipes in
# scripts/lib/bench-sessions.sh) and kept there:
#   linear-100MB.jsonl   -size 100MB -seed 1                (a linear session, as Pi writes one)
#   tree-100MB.jsonl     -size 100MB -seed 1 -branch-every 200 -compaction-every 1000 -unicode
#   linear-1500MB.jsonl  -size 1500MB -seed 5
#
# Environment:
#   FILES="..."   the files of DATA_DIR to measure (default: the three above)
#   ROUNDS=N      rounds per file (default 3)
#   BEFORE=PATH   a second pitool binary, run in each round beside this tree's
#   GOMAXPROCS=1  pitool on one core (jq uses one anyway)
#
# Both write to /dev/null. "CPU s" is user+sys of the process, steadier than the wall time on
# a shared machine; the ratios are jq's median over pitool's, of CPU and of wall time.
set -euo pipefail

source "$(dirname "$0")/lib/bench-sessions.sh"
bench_setup "${1:?usage: scripts/bench-validate-jq.sh DATA_DIR}"
files=${FILES:-linear-100MB.jsonl tree-100MB.jsonl linear-1500MB.jsonl}
rounds=${ROUNDS:-3}
# shellcheck disable=SC2086 # a list of names
bench_generate $files
tools="pitool jq"
[ -z "${BEFORE:-}" ] || tools="before $tools"

# run TOOL FILE: runs one tool on the file, prints "wall cpu peakKB"
run() {
	local cmd
	case $1 in
	pitool) cmd=("$bin/pitool" validate -q "$2") ;;
	before) cmd=("$BEFORE" validate -q "$2") ;;
	jq) cmd=(jq -c . "$2") ;;
	esac
	/usr/bin/time -f '%e %U %S %M' -o "$bin/time" "${cmd[@]}" >/dev/null 2>"$bin/err" || true
	awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 }' "$bin/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

printf 'pitool %s, %s cores, GOMAXPROCS=%s, %s\n' "$(git -C "$repo" rev-parse --short HEAD)" "$(nproc)" "${GOMAXPROCS:-unset}" "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-20s %5s %-7s %7s %7s %9s  %s\n' file round tool wall_s cpu_s peak_KB load
for name in $files; do
	f="$data/$name"
	cat "$f" >/dev/null # warm the page cache
	for r in $(seq 1 "$rounds"); do
		for t in $tools; do
			read -r wall cpu peak < <(run "$t" "$f")
			echo "$name $t $wall $cpu" >>"$bin/rows"
			printf '%-20s %5d %-7s %7s %7s %9s  %s\n' "$name" "$r" "$t" "$wall" "$cpu" "$peak" "$(cut -d' ' -f1 /proc/loadavg)"
		done
	done
done

printf '\nmedians of %d rounds\n%-20s %8s %-7s %7s %7s %9s %9s\n' "$rounds" file MB tool wall_s cpu_s jq/wall jq/cpu
for name in $files; do
	mb=$(($(stat -c %s "$data/$name") / 1000000))
	jw=$(awk -v n="$name" '$1 == n && $2 == "jq" { print $3 }' "$bin/rows" | median)
	jc=$(awk -v n="$name" '$1 == n && $2 == "jq" { print $4 }' "$bin/rows" | median)
	for t in $tools; do
		w=$(awk -v n="$name" -v t="$t" '$1 == n && $2 == t { print $3 }' "$bin/rows" | median)
		c=$(awk -v n="$name" -v t="$t" '$1 == n && $2 == t { print $4 }' "$bin/rows" | median)
		printf '%-20s %8d %-7s %7.2f %7.2f %8.1fx %8.1fx\n' "$name" "$mb" "$t" "$w" "$c" "$(echo "$jw / $w" | bc -l)" "$(echo "$jc / $c" | bc -l)"
	done
done
