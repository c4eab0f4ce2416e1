#!/usr/bin/env bash
# bench-memory.sh: peak RSS and bytes per entry of the commands that index a whole session
# (validate, context, compact --plan) on the files of issue 16: a 1.5 GB session of 4.6 M small
# entries, and linear (never compacted) sessions of 100 MB and 600 MB.
#
# usage: scripts/bench-memory.sh DATA_DIR
#
# The sessions are generated into DATA_DIR when absent (bench/cmd/gensession: `-shape chain
# -entries 4600000 -text-bytes 105` and `-size 100MB|600MB -seed 1`) and kept there.
#
# Environment:
#   BEFORE=PATH  a second pitool binary (e.g. built from an older commit), run beside this
#                tree's in the same rounds
#   FILES="..."  the files of DATA_DIR to measure (default: the three above)
#
# Each command runs with pitool's defaults (no GOGC or GOMEMLIMIT set), output to /dev/null,
# timed by /usr/bin/time. "B/entry" is the peak RSS minus the same command's peak on a
# one-entry session, divided by the entries.
set -euo pipefail

source "$(dirname "$0")/lib/bench-sessions.sh"
bench_setup "${1:?usage: scripts/bench-memory.sh DATA_DIR}"
files=${FILES:-small-4.6M.jsonl linear-100MB.jsonl linear-600MB.jsonl}
# shellcheck disable=SC2086 # a list of names
bench_generate $files

"$bin/gensession" -shape chain -entries 1 -text-bytes 105 -o "$bin/one.jsonl" 2>/dev/null

# measure BINARY FILE ARGS...: prints "wall_s peak_KB"
measure() {
	local b=$1 f=$2
	shift 2
	/usr/bin/time -f '%e %M' -o "$bin/time" "$b" "$@" "$f" >/dev/null 2>"$bin/err" || true
	cat "$bin/time"
}

printf '%-20s %10s %-16s %-7s %8s %10s %8s\n' file entries command binary wall "peak MB" "B/entry"
for name in $files; do
	f="$data/$name"
	entries=$(($(wc -l <"$f") - 1))
	cat "$f" >/dev/null # warm the page cache
	for cmd in "validate" "context" "compact --plan"; do
		for b in $binaries; do
			# shellcheck disable=SC2086
			read -r _ base < <(measure "$b" "$bin/one.jsonl" $cmd)
			# shellcheck disable=SC2086
			read -r wall kb < <(measure "$b" "$f" $cmd)
			label=after
			[ "$b" = "${BEFORE:-}" ] && label=before
			printf '%-20s %10d %-16s %-7s %7ss %10.1f %8d\n' "$name" "$entries" "$cmd" "$label" "$wall" \
				"$(echo "$kb / 1024" | bc -l)" $(((kb - base) * 1024 / entries))
		done
	done
done
