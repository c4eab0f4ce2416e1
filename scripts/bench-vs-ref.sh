#!/usr/bin/env bash
# bench-vs-ref.sh: time pitool against Pi's reference implementation on synthetic sessions.
#
# usage: scripts/bench-vs-ref.sh [SIZE...]        (default: 100MB; sizes take KB/MB/GB)
#
# For each size it generates a session with bench/cmd/gensession, then runs the same subcommand
# with pitool and with pi-ref (Pi 1.6.0's own code), and prints a markdown table of wall time and
# peak RSS (GNU /usr/bin/time) with pitool's speed and memory ratios. Output goes to /dev/null.
#
# Environment:
#   CMD=context|tokens|html   what to compare (default context); html is
#                             `pitool export html FILE -o OUT` vs `pi-ref html FILE OUT`
#   PI_REF=PATH               the reference runner (default scripts/pi-ref, installed
#                             before the timing)
#   GEN_FLAGS="..."           gensession shape flags (default: branches, compactions, unicode)
#   SEED=N                    gensession seed (default 1)
#   KEEP=1                    keep the temporary folder (sessions and logs) and print its path
#
# Exit status: 0 table printed (a failed run shows as "failed" in it), 1 setup failed, 2 usage.
set -euo pipefail

die() { echo "bench-vs-ref: error: $*" >&2; exit 1; }
note() { echo "bench-vs-ref: $*" >&2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
cmd=${CMD:-context}
seed=${SEED:-1}
gen_flags=${GEN_FLAGS:-"-branch-every 200 -compaction-every 1000 -unicode"}
pi_ref=${PI_REF:-$repo/scripts/pi-ref}
timer=/usr/bin/time

case $cmd in
context | tokens | html) ;;
*) echo "bench-vs-ref: error: CMD must be context, tokens or html, not '$cmd'" >&2; exit 2 ;;
esac
[[ $# -gt 0 ]] || set -- 100MB

[[ -x $timer ]] || die "$timer is missing (install it: apt-get install -y time)"
[[ -x $pi_ref ]] || die "reference runner '$pi_ref' is not executable (set PI_REF)"
[[ -n ${PI_REF:-} ]] || "$pi_ref" --install >/dev/null || die "scripts/pi-ref could not install Pi"
pi_ref=$(cd "$(dirname "$pi_ref")" && pwd)/$(basename "$pi_ref")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-vs-ref.XXXXXX")
cleanup() {
	if [[ ${KEEP:-} == 1 ]]; then note "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cd "$repo"
go build -o "$tmp/pitool" ./cmd/pitool || die "go build ./cmd/pitool failed"
go build -o "$tmp/gensession" ./bench/cmd/gensession || die "go build ./bench/cmd/gensession failed"

# measure NAME CMD...: runs CMD with stdout to /dev/null and prints "SECONDS RSS_KB", or
# "failed N" with its exit status; stderr is kept in $tmp/NAME.log.
measure() {
	local name=$1
	shift
	local status=0
	"$timer" -f '%e %M' -o "$tmp/$name.time" "$@" >/dev/null 2>"$tmp/$name.log" || status=$?
	if [[ $status -ne 0 ]]; then
		note "$name failed with status $status; last lines of its stderr:"
		tail -n 5 "$tmp/$name.log" >&2 || true
		echo "failed $status"
		return
	fi
	tail -n 1 "$tmp/$name.time"
}

# run_tool TOOL FILE: the command line that TOOL (pitool or pi-ref) runs for $cmd on FILE.
run_tool() {
	local tool=$1 file=$2
	case $tool/$cmd in
	pitool/html) echo "$tmp/pitool" export html "$file" -o "$tmp/pitool.html" ;;
	pi-ref/html) echo "$pi_ref" html "$file" "$tmp/pi-ref.html" ;;
	pitool/*) echo "$tmp/pitool" "$cmd" "$file" ;;
	pi-ref/*) echo "$pi_ref" "$cmd" "$file" ;;
	esac
}

# row SIZE TOOL RESULT RATIOS: one table row; RESULT is "SECONDS RSS_KB" or "failed N".
row() {
	local size=$1 tool=$2 result=$3 ratios=$4
	if [[ $result == failed* ]]; then
		echo "| $size | $tool | ${result} | – | $ratios |"
		return
	fi
	read -r secs kb <<<"$result"
	awk -v s="$size" -v t="$tool" -v secs="$secs" -v kb="$kb" -v r="$ratios" \
		'BEGIN { printf "| %s | %s | %.2f | %.1f | %s |\n", s, t, secs, kb / 1024, r }'
}

# ratios PITOOL_RESULT REF_RESULT: "speed | memory" of pitool against the reference.
ratios() {
	if [[ $1 == failed* || $2 == failed* ]]; then
		echo "– | –"
		return
	fi
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, p, " "); split(b, r, " ")
		ps = p[1] < 0.01 ? 0.01 : p[1]; rs = r[1] < 0.01 ? 0.01 : r[1]
		printf "%.1f× faster | %.1f× less memory", rs / ps, r[2] / p[2]
	}'
}

table="| size | tool | seconds | peak RSS MB | speed (pitool vs ref) | memory (pitool vs ref) |
|---|---|---|---|---|---|"
for size in "$@"; do
	file=$tmp/session-$size.jsonl
	note "generating $size ($gen_flags, seed $seed)"
	# shellcheck disable=SC2086 # GEN_FLAGS is a list of flags
	"$tmp/gensession" -size "$size" -seed "$seed" $gen_flags -o "$file" || die "gensession -size $size failed"
	note "running pitool $cmd on $size"
	# shellcheck disable=SC2046 # run_tool prints a command line of paths without spaces
	mine=$(measure "pitool-$size" $(run_tool pitool "$file"))
	note "running pi-ref $cmd on $size"
	# shellcheck disable=SC2046
	ref=$(measure "pi-ref-$size" $(run_tool pi-ref "$file"))
	table+=$'\n'$(row "$size" "pitool $cmd" "$mine" "$(ratios "$mine" "$ref")")
	table+=$'\n'$(row "$size" "pi-ref $cmd" "$ref" "– | –")
	rm -f "$file"
done
echo "$table"
