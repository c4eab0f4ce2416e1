#!/usr/bin/env bash
# bench-plan.sh: whole-process timing of `pitool compact --plan` over a folder of generated
# sessions (default 1 GB: 50 sessions of 20 MB, mixed shapes), beside pi-ref prepare on one file.
#
# usage: scripts/bench-plan.sh [FILES] [SIZE]      (default: 50 20MB)
#
# Environment:
#   DIR=PATH     where the sessions are generated and kept (default $TMPDIR/pitool-plan-bench)
#   JOBS=N       pitool -j (default 2)
#   PI_REF=PATH  the reference runner (default scripts/pi-ref, installed before the timing);
#                skipped if it cannot run
#
# Prints wall, user and sys seconds and MB/s: wall, and CPU-bound (bytes / ((user+sys)/JOBS), the
# wall time the run would take with JOBS idle cores), because a shared machine's wall time says
# more about its load than about pitool.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-50}
size=${2:-20MB}
dir=${DIR:-${TMPDIR:-/tmp}/pitool-plan-bench}
jobs=${JOBS:-2}
pi_ref=${PI_REF:-$repo/scripts/pi-ref}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

go build -o "$bin/pitool" "$repo/cmd/pitool"
go build -o "$bin/gensession" "$repo/bench/cmd/gensession"
mkdir -p "$dir"
for i in $(seq 1 "$files"); do
	f="$dir/s$i.jsonl"
	[ -s "$f" ] && continue
	flags=""
	[ $((i % 5)) = 0 ] && flags="-tool-heavy"
	[ $((i % 3)) = 0 ] && flags="$flags -compaction-every 300 -branch-every 80"
	# shellcheck disable=SC2086
	"$bin/gensession" -size "$size" -seed "$i" $flags -o "$f" 2>/dev/null
done
bytes=$(cat "$dir"/*.jsonl | wc -c)
cat "$dir"/*.jsonl >/dev/null # warm the page cache

timed() { # prints "wall user sys"
	local t
	t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
	echo "$t"
}
report() { # name jobs bytes wall user sys
	awk -v n="$1" -v j="$2" -v b="$3" -v w="$4" -v u="$5" -v s="$6" 'BEGIN {
		mb = b / 1048576
		printf "%-34s %8.0f MB  wall %6.2fs  user %6.2fs  sys %5.2fs  %7.1f MB/s wall  %7.1f MB/s cpu-bound\n",
			n, mb, w, u, s, mb / w, mb / ((u + s) / j) }'
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
# shellcheck disable=SC2046
report "pitool compact --plan -j $jobs" "$jobs" "$bytes" $(timed "$bin/pitool" compact --plan -j "$jobs" "$dir")
# shellcheck disable=SC2046
report "pitool compact --plan --json -j $jobs" "$jobs" "$bytes" $(timed "$bin/pitool" compact --plan --json -j "$jobs" "$dir")
one="$dir/s1.jsonl"
one_bytes=$(wc -c <"$one")
# shellcheck disable=SC2046
report "pitool compact --plan (s1 only)" 1 "$one_bytes" $(timed "$bin/pitool" compact --plan --json "$one")
if [ -x "$pi_ref" ] && { [ -n "${PI_REF:-}" ] || "$pi_ref" --install >/dev/null; }; then
	# shellcheck disable=SC2046
	report "pi-ref prepare (s1 only)" 1 "$one_bytes" $(timed "$pi_ref" prepare "$one")
fi
