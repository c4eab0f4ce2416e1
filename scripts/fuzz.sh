#!/usr/bin/env bash
# Gives every fuzz target of the module a short run, one after the other.
# The targets are found by grepping the test files for `^func Fuzz`, so a new
# target is never left out. A target that fails writes its input to its
# package's testdata/fuzz/FuzzX/ (go test does), and the script goes on to
# the next one; it exits 1 if any failed, after a table of every run.
#
# Usage: scripts/fuzz.sh [FUZZTIME] [PATTERN]
#   FUZZTIME  how long each target runs (go test -fuzztime: 5s, 10m, 1000x); default 5s
#   PATTERN   only targets whose package/name matches this grep -E pattern
# Environment: FUZZ_MINIMIZE (-fuzzminimizetime, default 5s), FUZZ_PARALLEL
# (-parallel, the fuzzing processes; default 1).
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${1:-5s}
pattern=${2:-.}
minimize=${FUZZ_MINIMIZE:-5s}
parallel=${FUZZ_PARALLEL:-1}

# targets prints "PKG NAME" for every fuzz target, sorted.
targets() {
  grep -rHo --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*' . |
    sed -E 's#^\./(.*)/[^/]*_test\.go:func (Fuzz.*)#./\1 \2#' | sort -u
}

failed=0
summary=()
while read -r pkg name; do
  grep -Eq -- "$pattern" <<<"$pkg/$name" || continue
  echo "== $pkg $name ($fuzztime)"
  log=$(mktemp)
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" \
    -parallel "$parallel" "$pkg" >"$log" 2>&1; then
    result=ok
  elif grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
    # go test's own flake: the time ran out while it waited on a worker;
    # no input failed.
    result=ok*
  else
    result=FAIL
    failed=1
    cat "$log"
  fi
  # A run that spends its whole time on the baseline coverage of a large
  # cached corpus prints no "execs:" line; that is not a failure.
  execs=$(grep -Eo 'execs: [0-9]+' "$log" | tail -1 | cut -d' ' -f2 || true)
  summary+=("$(printf '%-4s %-12s %-28s %10s execs' "$result" "$pkg" "$name" "${execs:-?}")")
  rm -f "$log"
done < <(targets)

printf '%s\n' "${summary[@]}"
echo "(ok*: the run ended in go test's \"context deadline exceeded\", with no failing input)"
if [ ${#summary[@]} -eq 0 ]; then
  echo "fuzz: no target matches $pattern" >&2
  exit 1
fi
exit $failed
