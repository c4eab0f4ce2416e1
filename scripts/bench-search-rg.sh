#!/usr/bin/env bash
# bench-search-rg.sh: pitool search beside rg on one folder of generated sessions, in
# interleaved rounds, with CPU seconds: issue 28's goal is pitool search at 1 GB or more per
# CPU second on a common word. Prints one row per run, then the medians.
#
# usage: scripts/bench-search-rg.sh DATA_DIR [WORD]
#
# DATA_DIR/plain is generated when absent: 10 sessions of 10 MB in 3 projects (gensession
# -size 10MB -seed i -branch-every 60 -compaction-every 300, every third -unicode), 105 MB.
# DATA_DIR/copied is the same folder plus a plain copy (cp) of 3 of its sessions, the
# history search shows once by default. WORD defaults to retry (192,647 matches in plain).
#
# Environment: ROUNDS=N (default 3); BEFORE=PATH, a second pitool binary run beside.
#
# The rows: `search -c --all-copies` reads each file once, as rg does; `search -c` (the
# default) also finds the matches copies share, in a first pass. rg counts raw occurrences
# (--count-matches, -F) in every byte of the JSONL, ids and keys included, and decodes
# nothing; pitool counts the matches in the decoded texts of the entries Pi loads, so the
# counts differ. MB/cpu_s is the folder's size over the process's user+sys seconds.
#
# Where the time goes, in process and on one core (pitool's start left out):
#   PITOOL_SEARCH_DIR=DATA_DIR/plain go test ./search -run '^$' -bench SearchFolder -cpu 1 -cpuprofile cpu.prof
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: scripts/bench-search-rg.sh DATA_DIR [WORD]}
word=${2:-retry}
rounds=${ROUNDS:-3}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/pitool" "$repo/cmd/pitool"
go build -o "$bin/gensession" "$repo/bench/cmd/gensession"
if [ ! -d "$data/plain" ]; then
	for i in $(seq 1 10); do
		p=proj$((i % 3))
		mkdir -p "$data/plain/$p"
		u=
		[ $((i % 3)) = 0 ] && u=-unicode
		# shellcheck disable=SC2086 # $u is one flag or none
		"$bin/gensession" -size 10MB -seed "$i" -cwd "/home/dev/$p" -branch-every 60 -compaction-every 300 $u \
			-o "$data/plain/$p/s$i.jsonl" 2>/dev/null
	done
fi
if [ ! -d "$data/copied" ]; then
	cp -r "$data/plain" "$data/copied"
	for i in 1 2 3; do cp "$data/plain/proj$((i % 3))/s$i.jsonl" "$data/copied/proj$((i % 3))/s$i-copy.jsonl"; done
fi

# run NAME DIR CMD…: runs CMD (printing counts per file) and records "name dir matches wall cpu"
run() {
	local name=$1 dir=$2
	shift 2
	/usr/bin/time -f '%e %U %S' -o "$bin/time" "$@" >"$bin/out" 2>/dev/null || true
	local matches
	matches=$(awk -F: '{ s += $NF } END { print s + 0 }' "$bin/out")
	awk -v n="$name" -v d="$dir" -v m="$matches" '{ printf "%s %s %d %.2f %.2f\n", n, d, m, $1, $2 + $3 }' "$bin/time" >>"$bin/rows"
	tail -1 "$bin/rows"
}
pitools="pitool"
[ -z "${BEFORE:-}" ] || pitools="before pitool"
exe() { if [ "$1" = before ]; then echo "$BEFORE"; else echo "$bin/pitool"; fi; }

printf 'pitool %s, word %s, %s cores, %s, load %s\n' "$(git -C "$repo" rev-parse --short HEAD)" "$word" "$(nproc)" \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "tool dir matches wall_s cpu_s"
for dir in plain copied; do
	d="$data/$dir"
	find "$d" -name '*.jsonl' -exec cat {} + >/dev/null # warm the page cache
	for _ in $(seq 1 "$rounds"); do
		for p in $pitools; do
			run "$p:search-c-all-copies" "$dir" "$(exe "$p")" search -c --all-copies "$word" "$d"
			run "$p:search-c" "$dir" "$(exe "$p")" search -c "$word" "$d"
		done
		run "rg-F-count-matches" "$dir" rg --no-config -F --count-matches "$word" "$d"
	done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
printf '\nmedians of %d rounds\n%-28s %-7s %6s %10s %7s %7s %10s\n' "$rounds" tool dir MB matches wall_s cpu_s MB/cpu_s
for dir in plain copied; do
	mb=$(find "$data/$dir" -name '*.jsonl' -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s / 1e6 }')
	for t in $(awk -v d="$dir" '$2 == d { print $1 }' "$bin/rows" | awk '!seen[$0]++'); do
		sel() { awk -v t="$t" -v d="$dir" -v c="$1" '$1 == t && $2 == d { print $c }' "$bin/rows"; }
		w=$(sel 4 | median)
		c=$(sel 5 | median)
		printf '%-28s %-7s %6d %10d %7.2f %7.2f %10.0f\n' "$t" "$dir" "$mb" "$(sel 3 | head -1)" "$w" "$c" "$(awk -v m="$mb" -v c="$c" 'BEGIN { print (c > 0 ? m / c : 0) }')"
	done
done
