package main

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/pitool/pitool/internal/nightstate"
)

// stateSettings names what a remembered result depends on besides the file:
// the pitool binary and the options of the run.
func stateSettings(run *nightlyRun) string {
	info, ok := debug.ReadBuildInfo()
	return fmt.Sprintf("%s; window %d, %+v, force %v, archive after %v",
		buildVersion(info, ok), run.opts.ContextWindow, run.opts.Settings, run.opts.Force, run.archiveAfter)
}

// openState reads the state file next to the report; one it cannot use
// gives an empty state, and the run says why on stderr.
func openState(e *env, path, settings string) *nightstate.State {
	st, err := nightstate.Open(path, settings)
	if err != nil {
		e.infof("nightly: %v; every file is worked on in full", err)
	}
	return st
}

// record remembers r for the next run when it is a result that the file's
// bytes and the settings decide, and the file had stamp s before it was read.
func record(st *nightstate.State, r fileReport, s nightstate.Stamp, at time.Time) {
	if rememberable(r) && s.Settled(at) {
		st.Keep(nightstate.Entry{File: r.file, Stamp: s, Action: r.action, Detail: r.detail, TokensBefore: r.tokens.before})
	}
}

// rememberable: nothing was due and nothing was written.
func rememberable(r fileReport) bool {
	return r.action == actNotDue && !r.repaired && len(r.damage) == 0 && r.tokens != nil
}

// rememberedReport is the report of a file with the remembered result e.
func rememberedReport(e nightstate.Entry, path string) fileReport {
	return fileReport{file: path, action: e.Action, detail: e.Detail, tokens: &compactTokens{before: e.TokensBefore}, remembered: true}
}
