#!/usr/bin/env bash
# bench-index.sh: peak RSS and CPU time of the commands that only read the offset index and the
# path (context, tree, info) on chained sessions of many small entries (issue 16: the index's
# bytes per entry).
#
# usage: scripts/bench-index.sh DATA_DIR [FILE...]
#
# FILEs are names inside DATA_DIR (default: c400k.jsonl c1000000.jsonl; generate them with
# `go run ./bench/cmd/gensession -shape chain -entries N -text-bytes 105 -o DATA_DIR/cN.jsonl`).
#
# Environment:
#   BEFORE=PATH    a second pitool binary (e.g. built from an older commit), run beside this
#                  tree's in the same rounds
#   COMMANDS="..." the commands to run (default: "context tree info")
#
# Each command runs with pitool's defaults (no GOGC or GOMEMLIMIT set), output to /dev/null,
# timed by /usr/bin/time. CPU is user + system seconds: on a loaded machine compare it and the
# peak, not the wall time.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: scripts/bench-index.sh DATA_DIR [FILE...]}
shift
files=${*:-c400k.jsonl c1000000.jsonl}
commands=${COMMANDS:-context tree info}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

go build -o "$bin/pitool" "$repo/cmd/pitool"
binaries="$bin/pitool"
[ -n "${BEFORE:-}" ] && binaries="$BEFORE $binaries"

printf '%-18s %-16s %-7s %8s %8s %12s\n' file command binary wall CPU "peak KB"
for name in $files; do
	f="$data/$name"
	cat "$f" >/dev/null # warm the page cache
	for cmd in $commands; do
		for b in $binaries; do
			label=after
			[ "$b" = "${BEFORE:-}" ] && label=before
			/usr/bin/time -f '%e %U %S %M' -o "$bin/time" "$b" $cmd "$f" >/dev/null 2>"$bin/err" || true
			read -r wall user sys kb <"$bin/time"
			printf '%-18s %-16s %-7s %7ss %7.2fs %12d\n' "$name" "$cmd" "$label" "$wall" \
				"$(echo "$user + $sys" | bc -l)" "$kb"
		done
	done
done
