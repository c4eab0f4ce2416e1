#!/usr/bin/env bash
# bench-stats-ccusage.sh: pitool stats beside ccusage's Pi reader (@ccusage/pi, pinned with
# its lock file in bench/ccusage/) on a folder of Pi sessions full of clones, forks and
# copies, with the difference split cause by cause (issue 26).
#
# usage: scripts/bench-stats-ccusage.sh [WORK_DIR]
#
# WORK_DIR (default: a new temporary folder, removed at the end unless KEEP=1) receives
#   sessions/projN/sK.jsonl   SESSIONS sessions (default 12) of SIZE (default 10MB) each, by
#                             go run ./bench/cmd/gensession (branches, compactions, usage)
#   and, made with pitool from each of the first COPIED (default 6) of them:
#     .../sK-clone1.jsonl, sK-clone2.jsonl   pitool clone (Pi's /clone: the active branch)
#     .../sK-fork.jsonl                      pitool fork --at a user message halfway down the file
#                                            (Pi's /fork), then new turns of its own
#     other/sK-moved.jsonl                   pitool fork --cwd (Pi's forkFrom: every entry)
#     .../sK-copy.jsonl                      cp (a backup, a synced folder)
#   sessions/corpus/          the repository's testdata/corpus/v3 and real sessions, and a
#                             clone of v3/branched.jsonl (two of its assistant messages share
#                             a timestamp and a token total)
#   cc/                       npm ci of bench/ccusage (the pinned @ccusage/pi)
#
# pitool is what `go run ./cmd/pitool` builds from this tree: its stats count every billed
# entry of every file (a copy's too) unless the tree's stats count copies once.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
sessions=$work/sessions
bin=$work/bin
mkdir -p "$bin" "$sessions"
go build -o "$bin/pitool" "$repo/cmd/pitool"
go build -o "$bin/gensession" "$repo/bench/cmd/gensession"
pitool=$bin/pitool

# ccusage's Pi reader, from the lock file, into WORK_DIR (not into the tree)
cc=$work/cc
if [ ! -x "$cc/node_modules/.bin/ccusage-pi" ]; then
	mkdir -p "$cc"
	cp "$repo/bench/ccusage/package.json" "$repo/bench/ccusage/package-lock.json" "$cc/"
	(cd "$cc" && npm ci --no-audit --no-fund >/dev/null 2>&1)
fi
ccusage=$cc/node_modules/.bin/ccusage-pi

n=${SESSIONS:-12}
copied=${COPIED:-6}
size=${SIZE:-10MB}
if [ ! -e "$work/.made" ]; then
	rm -rf "$sessions" && mkdir -p "$sessions/other"
	for i in $(seq 1 "$n"); do
		p=$sessions/proj$((i % 3))
		mkdir -p "$p"
		"$bin/gensession" -size "$size" -seed "$i" -cwd "/home/dev/proj$((i % 3))" -branch-every 60 \
			-compaction-every 300 -o "$p/s$i.jsonl" 2>/dev/null
	done
	mkdir -p "$sessions/corpus"
	cp "$repo"/testdata/corpus/v3/*.jsonl "$sessions/corpus/"
	for f in "$repo"/testdata/corpus/real/*.jsonl; do cp "$f" "$sessions/corpus/real-$(basename "$f")"; done
	"$pitool" clone -o "$sessions/corpus/branched-clone.jsonl" "$sessions/corpus/branched.jsonl" >/dev/null
	for i in $(seq 1 "$copied"); do
		p=$sessions/proj$((i % 3))
		s=$p/s$i.jsonl
		"$pitool" clone -o "$p/s$i-clone1.jsonl" "$s" >/dev/null
		"$pitool" clone -o "$p/s$i-clone2.jsonl" "$s" >/dev/null
		# a fork at the user message halfway down the file, then new turns: the
		# entries after the header of another generated session, the first re-parented to
		# the fork's last entry (new ids and timestamps: billed once, in the fork)
		mapfile -t users < <(jq -r 'select(.type == "message" and .message.role == "user") | .id' "$s")
		at=${users[$((${#users[@]} / 2))]}
		f=$p/s$i-fork.jsonl
		"$pitool" fork --at "$at" -o "$f" "$s" >/dev/null
		last=$(tail -n 1 "$f" | jq -r '.id // empty')
		"$bin/gensession" -entries 200 -seed $((1000 + i)) -o "$work/turns.jsonl" 2>/dev/null
		tail -n +2 "$work/turns.jsonl" | jq -c --arg last "$last" \
			'if .parentId == null then .parentId = (if $last == "" then null else $last end) else . end' >>"$f"
		"$pitool" fork --cwd /home/dev/other -o "$sessions/other/s$i-moved.jsonl" "$s" >/dev/null
		cp "$s" "$p/s$i-copy.jsonl"
	done
	touch "$work/.made"
fi

mapfile -t files < <(find "$sessions" -name '*.jsonl' -type f | sort)
bytes=$(cat "${files[@]}" | wc -c)
cat "${files[@]}" >/dev/null # warm the page cache
printf 'data: %s, %d files (%d sessions, %d of them cloned twice, forked twice and copied), %.0f MB; %s cores; load %s\n' \
	"$sessions" "${#files[@]}" "$n" "$copied" "$(echo "$bytes/1000000" | bc -l)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'pitool: %s (go run ./cmd/pitool of %s)\n\n' "$("$pitool" --version 2>/dev/null | head -1)" "$(git -C "$repo" rev-parse --short HEAD)"

timed() { # timed NAME CMD…: runs CMD (which prints one number), prints a row
	local name=$1
	shift
	local TIMEFORMAT='%R %U %S'
	{ time "$@" >"$bin/out" 2>/dev/null; } 2>"$bin/time"
	awk -v n="$name" -v m="$(cat "$bin/out")" -v b="$bytes" \
		'{ w = $1; c = $2 + $3; printf "  %-22s %12s %9.2f %9.2f %10.0f %10.0f\n", n, m, w, c, b/w/1e6, (c > 0 ? b/c/1e6 : 0) }' "$bin/time"
}
printf 'stats: total tokens (input+output+cache read+cache write), whole folder\n  %-22s %12s %9s %9s %10s %10s\n' \
	tool tokens wall_s cpu_s MB/s_wall MB/s_cpu
pitool_stats() { "$pitool" stats --json "$sessions" | tee "$bin/pitool.json" | jq '.total.totalTokens'; }
ccusage_stats() {
	"$ccusage" daily --json --piPath "$sessions" | tee "$bin/ccusage.json" |
		jq '[.daily[] | .inputTokens + .outputTokens + .cacheCreationTokens + .cacheReadTokens] | add // 0'
}
timed 'pitool stats' pitool_stats
pitool_total=$(cat "$bin/out")
timed 'ccusage-pi daily' ccusage_stats
ccusage_total=$(cat "$bin/out")

# The difference, cause by cause, from the files themselves (jq over every line of every
# file, in ccusage's file order: sorted paths, as its glob gives them here):
#   billed    every entry pitool bills: an assistant message with usage, a usage entry, a
#             compaction or branch summary with usage; with its file, id and timestamp
#   copies    the same entry (id + timestamp) billed again in another file
#   by rule   usage entries and summaries, which ccusage does not read
#   collide   distinct assistant messages that share ccusage's key, timestamp:totalTokens,
#             of which it keeps the first
tokens='(.input + .output + (.cacheRead // 0) + (.cacheWrite // 0))'
for f in "${files[@]}"; do
	jq -c --arg f "$f" "
		def billed: if .type == \"message\" and .message.role == \"assistant\" and (.message.usage.input | type) == \"number\" then
				{kind: \"assistant\", u: .message.usage}
			elif .type == \"usage\" and .usage != null then {kind: \"usage\", u: .usage}
			elif (.type == \"compaction\" or .type == \"branch_summary\") and .usage != null then {kind: \"summary\", u: .usage}
			else empty end;
		billed as \$b | {f: \$f, id, ts: .timestamp, kind: \$b.kind, t: (\$b.u | $tokens),
			ok: (\$b.kind == \"assistant\" and (.message.usage.output | type) == \"number\" and (.timestamp | type) == \"string\"
				and (.timestamp | test(\"^\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}:\\\\d{2}(\\\\.\\\\d{3})?(Z|[+-]\\\\d{2}:\\\\d{2})\$\"))),
			key: \"\(.timestamp):\(\$b.u.totalTokens // (\$b.u | $tokens))\"}" "$f" 2>/dev/null || true
done >"$bin/billed.jsonl"
jq -rs '
	def sum: map(.t) | add // 0;
	(sum) as $all
	| (unique_by([.id, .ts]) ) as $once
	| ($once | map(select(.kind == "assistant")) | sum) as $a_once
	| ($once | map(select(.kind == "usage")) | sum) as $u_once
	| ($once | map(select(.kind == "summary")) | sum) as $s_once
	| (map(select(.kind == "assistant")) | sum) as $a_all
	| ($all - ($once | sum)) as $copies
	| (map(select(.kind == "assistant")) | sum - $a_all) as $zero
	| (map(select(.ok)) | unique_by(.key) | sum) as $cc
	| (map(select(.ok)) | unique_by([.id, .ts]) | sum) as $cc_once
	| "\($all) \($copies) \($a_all - $a_once) \($all - $a_all - $u_once - $s_once) \($a_once) \($u_once) \($s_once) \($cc) \($cc_once - $cc) \($a_once - $cc_once)"
' "$bin/billed.jsonl" >"$bin/causes"
read -r all copies copies_a copies_other a_once u_once s_once cc_model collide rejected <"$bin/causes"
echo
printf '  pitool %s = once per entry %s + copies %s (assistant %s, usage entries and summaries %s)\n' \
	"$pitool_total" "$((all - copies))" "$copies" "$copies_a" "$copies_other"
[ "$pitool_total" = "$all" ] || printf '  (the files bill %s by the rule above: pitool differs by %s)\n' "$all" "$((pitool_total - all))"
printf '  once per entry %s = assistant messages %s + usage entries %s + compaction and branch summaries %s\n' \
	"$((all - copies))" "$a_once" "$u_once" "$s_once"
printf '  ccusage %s = assistant messages once %s - %s timestamp:totalTokens collisions of distinct messages - %s it rejects\n' \
	"$ccusage_total" "$a_once" "$collide" "$rejected"
[ "$ccusage_total" = "$cc_model" ] || printf '  (the model of ccusage gives %s: it differs by %s)\n' "$cc_model" "$((ccusage_total - cc_model))"
printf '  cost: pitool $%s, ccusage-pi $%s\n' \
	"$(jq '.total.cost*10000|round/10000' "$bin/pitool.json")" \
	"$(jq '[.daily[].totalCost] | add // 0 | .*10000|round/10000' "$bin/ccusage.json")"

# pitool search on the same folder: a match in copied history once (the default), and in
# every copy (--all-copies, as rg or grep count). The lines after the table: how many of
# the default's matches name copies, and how many copies' matches they stand for.
echo
printf 'search -c: matches, whole folder\n  %-22s %12s %9s %9s %10s %10s\n' tool matches wall_s cpu_s MB/s_wall MB/s_cpu
search_count() { { "$pitool" search -c "$@" "$sessions" || true; } | awk -F: '{s += $NF} END {print s+0}'; }
for p in retry ERROR; do
	i=
	[ "$p" = ERROR ] && i=-i
	timed "search $i $p" search_count $i "$p"
	timed "  --all-copies" search_count --all-copies $i "$p"
done
"$pitool" search --json retry "$sessions" | jq -rs '
	map(select(.copies)) | "  retry: \(length) matches name copies, standing for \(map(.copies | length) | add // 0) matches in copies"'
