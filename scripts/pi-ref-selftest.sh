#!/usr/bin/env bash
# Checks that scripts/pi-ref answers exactly as another reference runner (OTHER: any program
# taking the same subcommands, such as the runner it replaced) over session files: for every file
# and every subcommand, the same standard output bytes and the same exit status, and for html the
# same page and the same standard error; ls is run on every folder that holds the files.
#
#   scripts/pi-ref-selftest.sh OTHER [FILE|DIR...]
#
# Without FILE or DIR it takes every session the repository holds (*.jsonl under testdata/ and
# the packages' testdata/). Both runners run with scripts/piref/deterministic.mjs preloaded, so
# ids, clock and temporary folder names do not differ from run to run. A run that takes longer than
# PI_REF_SELFTEST_TIMEOUT seconds (default 20) is stopped. On a parent cycle Pi never ends: its
# memory grows until it is stopped or runs out, whichever comes first on a loaded machine, so when
# neither runner finished (stopped, or killed by a signal) that counts as agreement, reported apart.
# Prints one line per difference and a summary; exit status 0 when everything agrees, 1 otherwise.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 OTHER [FILE|DIR...]" >&2; exit 2; }
other=$1; shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ours=$root/scripts/pi-ref
limit=${PI_REF_SELFTEST_TIMEOUT:-20}
file_commands=(context llm provider tokens serialize prepare migrate tree info clone html)
export NODE_OPTIONS="--import $root/scripts/piref/deterministic.mjs"

if [[ $# -eq 0 ]]; then
  set -- "$root/testdata" $(cd "$root" && find . -path ./testdata -prune -o -type d -name testdata -print | sort | sed "s|^\.|$root|")
fi
mapfile -t files < <(for arg in "$@"; do
  if [[ -d $arg ]]; then find "$arg" -type f -name '*.jsonl'; else echo "$arg"; fi
done | sort -u)
mapfile -t folders < <(for f in "${files[@]}"; do dirname "$f"; done | sort -u)
"$ours" --install >/dev/null

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
same=0 unfinished=0 diffs=0

# run NAME ARGS...: runs one runner (ours or other), keeping its stdout, stderr and exit status.
run() {
  local name=$1 runner; shift
  [[ $name == ours ]] && runner=$ours || runner=$other
  local status=0
  { timeout "$limit" "$runner" "$@" </dev/null >"$work/$name.out" 2>"$work/$name.err"; } 2>/dev/null || status=$?
  echo "$status" >"$work/$name.status"
}

# unfinished STATUS: whether a run with that exit status was stopped by timeout or killed by a signal.
unfinished() { [[ $1 == 124 || $1 -ge 128 ]]; }

# compare CMD TARGET: runs CMD on TARGET with both runners and counts the outcome.
compare() {
  local cmd=$1 target=$2 args=("$1" "$2")
  [[ $cmd == html ]] && args+=("$work/page.html")
  local name
  for name in ours other; do
    rm -f "$work/page.html"
    run "$name" "${args[@]}"
    [[ $cmd == html && -f $work/page.html ]] && mv "$work/page.html" "$work/$name.html"
  done
  local status; status=$(cat "$work/ours.status")
  if unfinished "$status" && unfinished "$(cat "$work/other.status")"; then
    echo "UNFINISHED $cmd ${target#"$root"/}: status $status and $(cat "$work/other.status")"
    unfinished=$((unfinished + 1)); return
  fi
  local differs=
  cmp -s "$work/ours.status" "$work/other.status" || differs+=" status($status vs $(cat "$work/other.status"))"
  cmp -s "$work/ours.out" "$work/other.out" || differs+=" stdout"
  if [[ $cmd == html && $status == 0 ]]; then
    cmp -s "$work/ours.html" "$work/other.html" || differs+=" page"
    cmp -s "$work/ours.err" "$work/other.err" || differs+=" stderr"
  fi
  if [[ -n $differs ]]; then
    echo "DIFF $cmd ${target#"$root"/}:$differs"; diffs=$((diffs + 1))
  else
    same=$((same + 1))
  fi
  rm -f "$work"/*.html
}

start=$SECONDS
for f in "${files[@]}"; do
  for cmd in "${file_commands[@]}"; do compare "$cmd" "$f"; done
done
for d in "${folders[@]}"; do compare ls "$d"; done
echo "${#files[@]} files x ${#file_commands[@]} subcommands + ls on ${#folders[@]} folders = $((${#files[@]} * ${#file_commands[@]} + ${#folders[@]})) runs each: $same identical, $unfinished where neither finished (${limit} s limit), $diffs differences ($((SECONDS - start)) s)"
[[ $diffs -eq 0 ]]
