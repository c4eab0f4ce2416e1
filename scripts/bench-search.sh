#!/usr/bin/env bash
# bench-search.sh: pitool search beside rg and a jq-based search, on the same folder of Pi
# sessions, and pitool stats beside ccusage's Pi reader (@ccusage/pi, pinned in
# bench/ccusage/package.json), in one run.
#
# usage: scripts/bench-search.sh DATA_DIR
#
# DATA_DIR holds *.jsonl sessions (searched recursively), e.g. the 1.1 GB folder made by
#   for i in $(seq 1 110); do p=proj$((i%7)); mkdir -p DATA_DIR/$p; u=; [ $((i%3)) = 0 ] && u=-unicode
#     go run ./bench/cmd/gensession -size 10MB -seed $i -cwd /home/dev/$p -branch-every 60 \
#       -compaction-every 300 $u -o DATA_DIR/$p/s$i.jsonl; done
#
# Environment: jq (the slowest by far: about 20 MB per CPU second) runs for the quote pattern
# only; JQ=all runs it for every pattern, JQ=0 for none. CCUSAGE=0 skips ccusage.
#
# For each pattern it prints the matches each tool counts (occurrences, not lines), wall and
# CPU (user+sys) seconds, and MB/s of wall and of CPU time (bytes / CPU seconds: one core's
# rate, which says more than wall time on a shared machine). rg reads the raw JSONL, so a
# pattern holding a quote is found only when typed the way JSON escapes it (the "rg escaped"
# row); jq decodes every line and counts in every string value, including ids, the system
# prompt and tool definitions, which pitool does not search.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: scripts/bench-search.sh DATA_DIR}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/pitool" "$repo/cmd/pitool"
mapfile -t files < <(find "$dir" -name '*.jsonl' -type f | sort)
bytes=$(cat "${files[@]}" | wc -c)
cat "${files[@]}" >/dev/null # warm the page cache
printf 'data: %s, %d files, %.0f MB; %s cores; load %s\n\n' "$dir" "${#files[@]}" "$(echo "$bytes/1000000" | bc -l)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"

# timed NAME CMD…: runs CMD (which prints one number, the matches), prints a row
timed() {
	local name=$1
	shift
	local TIMEFORMAT='%R %U %S'
	{ time "$@" >"$bin/out" 2>/dev/null; } 2>"$bin/time"
	awk -v n="$name" -v m="$(cat "$bin/out")" -v b="$bytes" \
		'{ w = $1; c = $2 + $3; printf "  %-22s %12s %9.2f %9.2f %10.0f %10.0f\n", n, m, w, c, b/w/1e6, (c > 0 ? b/c/1e6 : 0) }' "$bin/time"
}
sum() { awk -F: '{s += $NF} END {print s+0}'; }
# --all-copies: every match in every file, as rg and jq count (and one pass; the default
# also finds the matches clones, forks and copies share: scripts/bench-stats-ccusage.sh)
pitool_count() { { "$bin/pitool" search -c --all-copies "$@" "${files[@]}" || true; } | sum; }
rg_count() { { /usr/bin/rg --no-config --count-matches --with-filename "$@" -- "${files[@]}" || true; } | sum; }
jq_count() { # jq_count FILTER ARG: occurrences in every decoded string value
	jq -r --arg p "$2" "[.. | strings | $1 | length] | add // 0" "${files[@]}" 2>/dev/null | awk '{s += $1} END {print s+0}'
}

header() { printf '%s\n  %-22s %12s %9s %9s %10s %10s\n' "$1" tool matches wall_s cpu_s MB/s_wall MB/s_cpu; }

header 'pattern retry (a word)'
timed 'pitool search' pitool_count retry
timed 'rg -F' rg_count -F retry
[ "${JQ:-1}" != all ] || timed 'jq' jq_count 'indices($p)' retry
echo
header 'pattern tree("config (a quote, written \" in the file)'
timed 'pitool search' pitool_count 'tree("config'
timed 'rg -F' rg_count -F 'tree("config'
timed 'rg -F escaped' rg_count -F 'tree(\"config'
[ "${JQ:-1}" = 0 ] || timed 'jq' jq_count 'indices($p)' 'tree("config'
echo
header 'pattern -i ERROR (case folded)'
timed 'pitool search -i' pitool_count -i ERROR
timed 'rg -i -F' rg_count -i -F ERROR
[ "${JQ:-1}" != all ] || timed 'jq ascii_downcase' jq_count 'ascii_downcase | indices($p)' error
echo
header 'pattern -e fail(ed|ure) (a regexp)'
timed 'pitool search -e' pitool_count -e 'fail(ed|ure)'
timed 'rg -e' rg_count -e 'fail(ed|ure)'
echo

if [ "${CCUSAGE:-1}" != 0 ]; then
	cc=$repo/bench/ccusage
	[ -x "$cc/node_modules/.bin/ccusage-pi" ] || (cd "$cc" && npm ci --no-audit --no-fund >/dev/null 2>&1)
	header 'stats: total tokens (input+output+cache read+cache write), whole folder'
	pitool_stats() { "$bin/pitool" stats --json "${files[@]}" | tee "$bin/pitool.json" | jq '.total.totalTokens'; }
	ccusage_stats() {
		"$cc/node_modules/.bin/ccusage-pi" daily --json --piPath "$dir" | tee "$bin/ccusage.json" |
			jq '[.daily[] | .inputTokens + .outputTokens + .cacheCreationTokens + .cacheReadTokens] | add // 0'
	}
	timed 'pitool stats' pitool_stats
	pitool_total=$(cat "$bin/out")
	timed 'ccusage-pi daily' ccusage_stats
	ccusage_total=$(cat "$bin/out")
	# The difference, by cause (docs/stats.md): what ccusage leaves out by rule, found with rg
	# (every generated line is written as JSON.stringify writes it) and summed with jq.
	tokens='.input + .output + .cacheRead + .cacheWrite'
	lines() { /usr/bin/rg --no-config -N --no-filename "$1" -- "${files[@]}" || true; }
	usage_entries=$(lines '^\{"type":"usage",' | jq -n "[inputs | .usage // empty | $tokens] | add // 0")
	summaries=$(lines '^\{"type":"(compaction|branch_summary)",.*"usage":' | jq -n "[inputs | .usage // empty | $tokens] | add // 0")
	tool_results=$(lines '"role":"toolResult".*"usage":' | jq -n "[inputs | .message.usage // empty | $tokens] | add // 0")
	assistant=$((pitool_total - usage_entries - summaries - tool_results))
	printf '\n  pitool %s = assistant messages %s + usage entries %s + compaction and branch summaries %s + tool results %s\n' \
		"$pitool_total" "$assistant" "$usage_entries" "$summaries" "$tool_results"
	# ccusage's own reading of the same lines: the assistant messages it accepts, and how many
	# tokens its timestamp:totalTokens deduplication drops (first one kept, in file order).
	dedup=$(lines '"role":"assistant"' | jq -rn '
		[inputs | select(.type == "message" and .message.role == "assistant" and (.message.usage.input | type) == "number"
			and (.message.usage.output | type) == "number" and (.timestamp | type) == "string"
			and (.timestamp | test("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?(Z|[+-]\\d{2}:\\d{2})$")))
		| .message.usage as $u | ($u.input + $u.output + ($u.cacheRead // 0) + ($u.cacheWrite // 0)) as $t
		| {key: "\(.timestamp):\($u.totalTokens // $t)", t: $t}]
		| (map(.t) | add // 0) as $all | (unique_by(.key) | map(.t) | add // 0) as $kept | "\($all) \($all - $kept)"')
	read -r accepted dropped <<<"$dedup"
	printf '  ccusage %s = assistant messages it accepts %s (of %s) - %s its timestamp:totalTokens deduplication drops\n' \
		"$ccusage_total" "$accepted" "$assistant" "$dropped"
	printf '  cost: pitool $%s, ccusage-pi $%s\n' \
		"$(jq '.total.cost*10000|round/10000' "$bin/pitool.json")" \
		"$(jq '[.daily[].totalCost] | add // 0 | .*10000|round/10000' "$bin/ccusage.json")"
fi
