#!/usr/bin/env bash
# Runs Pi's own code (scripts/pi-ref, or $PI_REF) and pitool side by side over
# every session under DIR and reports each difference.
#
#   scripts/conformance.sh DIR [VIEW...]
#
# VIEWs default to context llm provider tokens tree. JSON outputs are compared as
# values (key order ignored, numbers as numbers) with node, which pi-ref needs anyway.
# Legacy v1 files get random ids in Pi, so their tree is not compared.
# Exit status: 0 when everything agrees, 1 on any difference, 2 on usage errors.
set -euo pipefail

usage() { echo "usage: $0 DIR [context|llm|provider|tokens|tree ...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
dir=$1; shift
[ -d "$dir" ] || { echo "conformance: $dir is not a folder" >&2; exit 2; }
views=("$@"); [ ${#views[@]} -gt 0 ] || views=(context llm provider tokens tree)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ref=${PI_REF:-$root/scripts/pi-ref}
[ -x "$ref" ] || { echo "conformance: no reference at $ref (set PI_REF)" >&2; exit 2; }
[ -n "${PI_REF:-}" ] || "$ref" --install >/dev/null || { echo "conformance: scripts/pi-ref could not install Pi" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/pitool" ./cmd/pitool)

same_json() {
  node -e '
    const fs = require("fs"), assert = require("assert");
    try { assert.deepStrictEqual(JSON.parse(fs.readFileSync(process.argv[1])), JSON.parse(fs.readFileSync(process.argv[2]))); }
    catch (e) { console.error(String(e.message).split("\n").slice(0, 12).join("\n")); process.exit(1); }
  ' "$1" "$2"
}

pitool_view() { # view file
  case $1 in
    tokens) "$work/pitool" tokens "$2" ;;
    tree) "$work/pitool" tree --json "$2" ;;
    *) "$work/pitool" context --view "$1" "$2" ;;
  esac
}

files=0 diffs=0
while IFS= read -r -d '' f; do
  files=$((files + 1))
  for v in "${views[@]}"; do
    if [ "$v" = tree ] && ! head -n1 "$f" | grep -q '"version"'; then continue; fi
    if ! "$ref" "$v" "$f" >"$work/ref.json" 2>"$work/ref.err"; then
      echo "SKIP $v $f: pi-ref failed: $(head -c 200 "$work/ref.err")"; continue
    fi
    if ! pitool_view "$v" "$f" >"$work/ours.json" 2>"$work/ours.err"; then
      echo "DIFF $v $f: pitool failed: $(head -c 300 "$work/ours.err")"; diffs=$((diffs + 1)); continue
    fi
    if ! same_json "$work/ours.json" "$work/ref.json" 2>"$work/diff.txt"; then
      echo "DIFF $v $f"; sed 's/^/    /' "$work/diff.txt"; diffs=$((diffs + 1))
    fi
  done
done < <(find "$dir" -type f -name '*.jsonl' -print0 | sort -z)

echo "$files files, ${#views[@]} views each: $diffs differences"
[ "$diffs" -eq 0 ]
