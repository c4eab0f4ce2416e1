#!/usr/bin/env bash
# bench-index-per-entry.sh: bytes per entry of context, tree and info on hostile shapes large
# enough that fixed buffers do not blur them (issue 16), measured as TestHostileShapesBounded
# measures them: the peak RSS at N entries minus the peak at N/4, divided by the entries added,
# with GOGC=25 and GODEBUG=gcstoptheworld=1 (measureEnv) so that the peak is what the command
# keeps.
#
# usage: scripts/bench-index-per-entry.sh DATA_DIR
#
# The shapes are generated into DATA_DIR when absent (bench/cmd/gensession -shape SHAPE
# -entries N) and kept there: chain and tiny at 400,000 and 100,000 entries, siblings and
# self-parent at 100,000 and 25,000.
#
# Environment:
#   BEFORE=PATH    a second pitool binary (e.g. built from an older commit), run beside this
#                  tree's in the same rounds
#   COMMANDS="..." the commands to run (default: "context tree info")
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
data=${1:?usage: scripts/bench-index-per-entry.sh DATA_DIR}
commands=${COMMANDS:-context tree info}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

go build -o "$bin/pitool" "$repo/cmd/pitool"
go build -o "$bin/gensession" "$repo/bench/cmd/gensession"
mkdir -p "$data"
binaries="$bin/pitool"
[ -n "${BEFORE:-}" ] && binaries="$BEFORE $binaries"

# peak BINARY CMD FILE: prints the peak RSS in KB
peak() {
	GOGC=25 GODEBUG=gcstoptheworld=1 /usr/bin/time -f '%M' -o "$bin/time" "$1" $2 "$3" >/dev/null 2>"$bin/err" || true
	tail -n 1 "$bin/time" # the last line: time first says when the command exits non-zero
}

printf '%-12s %8s %-8s %-7s %10s %10s %8s\n' shape entries command binary "peak KB" "N/4 KB" "B/entry"
for spec in chain:400000 tiny:400000 siblings:100000 self-parent:100000; do
	shape=${spec%%:*} n=${spec##*:} quarter=$((${spec##*:} / 4))
	for m in $n $quarter; do
		f="$data/$shape-$m.jsonl"
		[ -s "$f" ] || "$bin/gensession" -shape "$shape" -entries "$m" -o "$f" 2>/dev/null
	done
	for cmd in $commands; do
		for b in $binaries; do
			label=after
			[ "$b" = "${BEFORE:-}" ] && label=before
			small=$(peak "$b" "$cmd" "$data/$shape-$quarter.jsonl")
			big=$(peak "$b" "$cmd" "$data/$shape-$n.jsonl")
			printf '%-12s %8d %-8s %-7s %10d %10d %8d\n' "$shape" "$n" "$cmd" "$label" "$big" "$small" \
				$(((big - small) * 1024 / (n - quarter)))
		done
	done
done
