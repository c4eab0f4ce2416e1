package main

import (
	"os"
	"strconv"
)

// The long suite: PITOOL_LONG=1 runs every test at the full size
// (30 kills per command, 2,000,000-entry shapes, 10,000 sessions, a 200 MB
// line); PITOOL_STRESS_TRIALS=N sets the number of trials of the crash and
// stress tests and also selects their long-suite sizes. The default run
// keeps a few trials and small sizes, so that go test ./... stays quick.

// longTrials is the number of trials per case in the long suite.
const longTrials = 30

// longSuite reports whether the long suite was asked for.
func longSuite() bool {
	return os.Getenv("PITOOL_LONG") == "1" || os.Getenv("PITOOL_STRESS_TRIALS") != ""
}

// stressTrials is the number of trials per case: PITOOL_STRESS_TRIALS, else
// longTrials in the long suite, else def.
func stressTrials(def int) int {
	if n, err := strconv.Atoi(os.Getenv("PITOOL_STRESS_TRIALS")); err == nil && n > 0 {
		return n
	}
	if longSuite() {
		return longTrials
	}
	return def
}
