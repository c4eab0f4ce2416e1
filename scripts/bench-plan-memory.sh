#!/usr/bin/env bash
# bench-plan-memory.sh: peak RSS, CPU seconds and bytes per entry of `pitool compact --plan` on
# chained and linear sessions that were never compacted (issue 16, "compact --plan over the index").
#
# usage: scripts/bench-plan-memory.sh DATA_DIR
#
# The sessions are generated into DATA_DIR when absent (bench/cmd/gensession) and kept there:
#   c400k.jsonl        -shape chain -entries 400000 -text-bytes 105   (132 MB)
#   c1000000.jsonl     -shape chain -entries 1000000                  (226 MB)
#   linear-100MB.jsonl -size 100MB -seed 1
#   small-4.6M.jsonl   -shape chain -entries 4600000 -text-bytes 105 (1.5 GB; only when in FILES)
#
# Environment:
#   BEFORE=PATH  a second pitool binary (e.g. built from an older commit), run beside this
#                tree's in the same rounds
#   FILES="..."  the files of DATA_DIR to measure (default: c400k.jsonl c1000000.jsonl
#                linear-100MB.jsonl)
#
# Each file is planned twice per binary: with pitool's defaults (its 200 MiB soft memory limit
# then caps the peak of small files) and with GOGC=25, whose peak follows what the plan keeps.
# "B/entry" is the GOGC=25 peak minus the same binary's GOGC=25 peak on the previous (smaller)
# chained file, divided by the entries added: the cost per entry without fixed buffers.
# CPU is user + system seconds (the machine may be loaded; wall time is not shown).
set -euo pipefail

source "$(dirname "$0")/lib/bench-sessions.sh"
bench_setup "${1:?usage: scripts/bench-plan-memory.sh DATA_DIR}"
files=${FILES:-c400k.jsonl c1000000.jsonl linear-100MB.jsonl}
# shellcheck disable=SC2086 # a list of names
bench_generate $files

# measure BINARY FILE [ENV]: prints "cpu_s peak_KB"
measure() {
	env ${3:-} /usr/bin/time -f '%U %S %M' -o "$bin/time" "$1" compact --plan "$2" >/dev/null 2>"$bin/err" || true
	awk '{printf "%.2f %d\n", $1 + $2, $3}' "$bin/time"
}

printf '%-20s %9s %-7s %8s %11s %8s %12s %8s\n' file entries binary "CPU s" "peak KB" "GC25 CPU" "GC25 peak KB" "B/entry"
declare -A prevKB prevN
for name in $files; do
	f="$data/$name"
	entries=$(($(wc -l <"$f") - 1))
	cat "$f" >/dev/null # warm the page cache
	for b in $binaries; do
		label=after
		[ "$b" = "${BEFORE:-}" ] && label=before
		read -r cpu kb < <(measure "$b" "$f")
		read -r gcpu gkb < <(measure "$b" "$f" GOGC=25)
		per=-
		case $name in c*.jsonl | small-*.jsonl)
			if [ -n "${prevKB[$label]:-}" ] && [ "$entries" -gt "${prevN[$label]}" ]; then
				per=$(((gkb - prevKB[$label]) * 1024 / (entries - prevN[$label])))
			fi
			prevKB[$label]=$gkb prevN[$label]=$entries
			;;
		esac
		printf '%-20s %9d %-7s %8s %11d %8s %12d %8s\n' "$name" "$entries" "$label" "$cpu" "$kb" "$gcpu" "$gkb" "$per"
	done
done
