#!/usr/bin/env bash
# bench-validate.sh: peak RSS, CPU time and bytes per entry of `pitool validate` (and
# `repair --dry-run`, which keeps validation's model and tree for its plan) on chained and
# tool-heavy sessions (issue 16, "validate over the index").
#
# usage: scripts/bench-validate.sh DATA_DIR
#
# The sessions are generated into DATA_DIR when absent (bench/cmd/gensession) and kept there:
#   c400k.jsonl      -shape chain -entries 400000 -text-bytes 105       (132 MB)
#   c1000000.jsonl   -shape chain -entries 1000000                      (226 MB)
#   g200k.jsonl      -entries 200000 -seed 3 -branch-every 200 -compaction-every 500
#                    -tool-result-bytes 200                             (162 MB, 87,499 tool calls)
#   small-4.6M.jsonl -shape chain -entries 4600000 -text-bytes 105      (1.5 GB; only in FILES)
#
# Environment:
#   BEFORE=PATH  a second pitool binary (e.g. built from main), run beside this tree's
#   FILES="..."  the files of DATA_DIR to measure (default: c400k.jsonl c1000000.jsonl g200k.jsonl)
#
# pitool's defaults (no GOGC or GOMEMLIMIT set), output to /dev/null. "CPU s" is user+sys;
# compare it and the peak, not the wall time, on a loaded machine. "B/entry" is the peak RSS
# divided by the entries (the whole process: fixed buffers included).
set -euo pipefail

source "$(dirname "$0")/lib/bench-sessions.sh"
bench_setup "${1:?usage: scripts/bench-validate.sh DATA_DIR}"
files=${FILES:-c400k.jsonl c1000000.jsonl g200k.jsonl}
# shellcheck disable=SC2086 # a list of names
bench_generate $files

printf '%-18s %9s %-18s %-7s %8s %8s %10s %8s\n' file entries command binary wall "CPU s" "peak KB" "B/entry"
for name in $files; do
	f="$data/$name"
	entries=$(($(wc -l <"$f") - 1))
	cat "$f" >/dev/null # warm the page cache
	for cmd in "validate" "repair --dry-run"; do
		for b in $binaries; do
			# shellcheck disable=SC2086
			/usr/bin/time -f '%e %U %S %M' -o "$bin/time" "$b" $cmd "$f" >/dev/null 2>"$bin/err" || true
			read -r wall user sys peak <"$bin/time"
			label=after
			[ "$b" = "${BEFORE:-}" ] && label=before
			printf '%-18s %9d %-18s %-7s %8s %8.2f %10d %8d\n' "$name" "$entries" "$cmd" "$label" "$wall" \
				"$(echo "$user + $sys" | bc)" "$peak" $((peak * 1024 / entries))
		done
	done
done
