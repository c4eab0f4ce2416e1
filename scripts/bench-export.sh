#!/usr/bin/env bash
# bench-export.sh: `pitool export html` against `pi-ref html` (Pi 1.6.0's export) on a 100 MB
# linear session, side by side in one run, and how soon headless Chromium paints the first
# message of pitool's page.
#
# usage: scripts/bench-export.sh DATA_DIR
#
# DATA_DIR/linear-100mb.jsonl is generated on the first run (gensession -size 100MB -seed 1
# -branch-every 0 -compaction-every 0 -unicode: one branch, the whole file) and kept. Each tool
# runs RUNS times (default 3) with its output in a temporary folder; the table shows the best
# wall time, its user+sys seconds and the highest peak RSS (GNU /usr/bin/time), and pitool's speed
# by wall time and by CPU time (on a busy machine the wall ratio says more about the load, and
# pitool's two goroutine stages need two idle cores for their wall time). The first-message
# time is the best of up to 5 loads by TestBrowserFirstMessageFast (Element Timing, from
# navigation start), each in a fresh browser context.
#
# Environment:
#   RUNS=N         runs per tool (default 3)
#   PITOOL=PATH    the pitool binary to time (default: built from this checkout)
#   BEFORE=PATH    a second pitool binary (e.g. an earlier commit's), timed in the same run,
#                  its runs alternating with PITOOL's, and shown as its own row
#   PI_REF=PATH    the reference runner (default scripts/pi-ref, installed before the timing)
#   NO_BROWSER=1   skip the Chromium measurement
#
# Exit status: 0 table printed, 1 setup or a run failed, 2 usage.
set -euo pipefail

die() { echo "bench-export: error: $*" >&2; exit 1; }
note() { echo "bench-export: $*" >&2; }

[[ $# -eq 1 ]] || { echo "usage: scripts/bench-export.sh DATA_DIR" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
data=$(mkdir -p "$1" && cd "$1" && pwd)
runs=${RUNS:-3}
pi_ref=${PI_REF:-$repo/scripts/pi-ref}
timer=/usr/bin/time
[[ -x $timer ]] || die "$timer is missing (install it: apt-get install -y time)"
[[ -x $pi_ref ]] || die "reference runner '$pi_ref' is not executable (set PI_REF)"
[[ -n ${PI_REF:-} ]] || "$pi_ref" --install >/dev/null || die "scripts/pi-ref could not install Pi"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

cd "$repo"
if [[ -n ${PITOOL:-} ]]; then
	cp "$PITOOL" "$tmp/pitool" || die "cannot copy '$PITOOL'"
else
	go build -o "$tmp/pitool" ./cmd/pitool || die "go build ./cmd/pitool failed"
fi
session=$data/linear-100mb.jsonl
if [[ ! -s $session ]]; then
	note "generating $session"
	go run ./bench/cmd/gensession -size 100MB -seed 1 -branch-every 0 -compaction-every 0 -unicode -o "$session" ||
		die "gensession failed"
fi
cat "$session" >/dev/null # warm the page cache for both tools

# best NAME CMD...: runs CMD $runs times (stdout to /dev/null) and prints
# "WALL CPU RSS_KB": the best wall time, the user+sys seconds of that run, the highest RSS.
best() {
	local name=$1
	shift
	local wall="" cpu="" rss=0
	for ((i = 1; i <= runs; i++)); do
		"$timer" -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >/dev/null 2>"$tmp/$name.log" ||
			{ tail -n 5 "$tmp/$name.log" >&2; die "$name failed"; }
		read -r w u s m <<<"$(tail -n 1 "$tmp/$name.time")"
		if [[ -z $wall ]] || awk -v a="$w" -v b="$wall" 'BEGIN { exit !(a < b) }'; then
			wall=$w cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		fi
		((m > rss)) && rss=$m
	done
	echo "$wall $cpu $rss"
}

if [[ -n ${BEFORE:-} ]]; then
	cp "$BEFORE" "$tmp/before" || die "cannot copy '$BEFORE'"
	note "pitool export html and BEFORE's, $runs runs each, alternating"
	saved_runs=$runs runs=1
	for ((round = 1; round <= saved_runs; round++)); do
		best before "$tmp/before" export html "$session" -o "$tmp/before.html" >>"$tmp/before.each"
		best pitool "$tmp/pitool" export html "$session" -o "$tmp/pitool.html" >>"$tmp/pitool.each"
	done
	runs=$saved_runs
	for name in before pitool; do # the best wall, its CPU, the highest RSS
		sort -n "$tmp/$name.each" | awk 'NR == 1 { w = $1; c = $2 } $3 > r { r = $3 } END { print w, c, r }' >"$tmp/$name.best"
	done
	read -r bw bc br <"$tmp/before.best"
else
	note "pitool export html, $runs runs"
	best pitool "$tmp/pitool" export html "$session" -o "$tmp/pitool.html" >"$tmp/pitool.best"
fi
read -r pw pc pr <"$tmp/pitool.best"
note "pi-ref html, $runs runs"
best pi-ref "$pi_ref" html "$session" "$tmp/pi-ref.html" >"$tmp/pi-ref.best"
read -r rw rc rr <"$tmp/pi-ref.best"
page_mb=$(awk -v b="$(stat -c %s "$tmp/pitool.html")" 'BEGIN { printf "%.0f", b / 1048576 }')

first="not measured"
if [[ ${NO_BROWSER:-} != 1 ]]; then
	note "first message in headless Chromium"
	if PITOOL_PAINT_HTML=$tmp/pitool.html go test -count=1 -run '^TestBrowserFirstMessageFast$' -v ./exporter >"$tmp/browser.log" 2>&1; then
		first=$(grep -o 'painted after [0-9]* ms' "$tmp/browser.log" | awk '{ print $3 }' | sort -n | head -n 1)
		first="$first ms"
	else
		first="over 1 s or failed (see below)"
		tail -n 8 "$tmp/browser.log" >&2
	fi
fi

echo "| tool | best wall s | its CPU s | peak RSS MB | wall speed | CPU speed |"
echo "|---|---|---|---|---|---|"
awk -v w="$pw" -v c="$pc" -v r="$pr" -v rw="$rw" -v rc="$rc" 'BEGIN {
	printf "| pitool export html | %.2f | %.2f | %.0f | %.1f× pi-ref | %.1f× pi-ref |\n", w, c, r / 1024, rw / (w < 0.01 ? 0.01 : w), rc / (c < 0.01 ? 0.01 : c) }'
if [[ -n ${BEFORE:-} ]]; then
	awk -v w="$bw" -v c="$bc" -v r="$br" -v rw="$rw" -v rc="$rc" 'BEGIN {
	printf "| BEFORE export html | %.2f | %.2f | %.0f | %.1f× pi-ref | %.1f× pi-ref |\n", w, c, r / 1024, rw / (w < 0.01 ? 0.01 : w), rc / (c < 0.01 ? 0.01 : c) }'
fi
awk -v w="$rw" -v c="$rc" -v r="$rr" 'BEGIN { printf "| pi-ref html | %.2f | %.2f | %.0f | 1× | 1× |\n", w, c, r / 1024 }'
echo
echo "pitool's page: $page_mb MB; first message painted in Chromium: $first (best of up to 5 loads)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
