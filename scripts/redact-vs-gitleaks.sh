#!/usr/bin/env bash
# Times `pitool redact` against gitleaks v8 on the same generated session,
# whole processes side by side, both pinned to one core (taskset -c 0).
#
#   scripts/redact-vs-gitleaks.sh [SIZE]      SIZE defaults to 100MB
#
# gitleaks comes from $GITLEAKS or PATH:
#   go install github.com/zricethezav/gitleaks/v8@v8.30.1
# Prints wall time, CPU time (user+system), throughput on both, peak RSS and
# the number of findings. The generated session holds no planted secrets,
# so this measures scanning speed; recall is TestCompareGitleaks' job.
set -euo pipefail
size=${1:-100MB}
gitleaks=${GITLEAKS:-gitleaks}
command -v "$gitleaks" >/dev/null || { echo "redact-vs-gitleaks: no gitleaks binary (set GITLEAKS)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$(dirname "$0")/.."
go build -o "$tmp/pitool" ./cmd/pitool
go run ./bench/cmd/gensession -size "$size" -o "$tmp/session.jsonl" 2>/dev/null
bytes=$(stat -c %s "$tmp/session.jsonl")

# measure NAME CMD...: one pinned run, one line of figures.
measure() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" taskset -c 0 "$@" >"$tmp/out" 2>"$tmp/err" || true
	read -r wall user sys rss <"$tmp/time"
	awk -v n="$name" -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" \
		'BEGIN { c = u + s; printf "%-28s %8.2f s wall %8.2f s cpu %8.1f MB/s wall %8.1f MB/s cpu %7.0f MB rss\n", n, w, c, b/w/1e6, b/(c > 0 ? c : 1e-9)/1e6, r/1024 }'
}

echo "session: $size generated, $bytes bytes; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure "pitool redact --check" "$tmp/pitool" redact --check "$tmp/session.jsonl"
found=$(grep -o 'found [0-9]*' "$tmp/err" | cut -d' ' -f2)
measure "pitool redact -o FILE" "$tmp/pitool" redact -o "$tmp/redacted.jsonl" "$tmp/session.jsonl"
measure "gitleaks dir" "$gitleaks" dir "$tmp/session.jsonl" --report-format json --report-path "$tmp/gitleaks.json" --no-banner --exit-code 0
echo "findings: pitool ${found:-?}, gitleaks $(jq length "$tmp/gitleaks.json")"
