package main

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/pitool/pitool/archive"
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
// gives an empty state, and the run says why on stderr. It takes the
// reading begun while the walk ran (readStateAhead) when there is one.
func openState(e *env, run *nightlyRun) *nightstate.State {
	read := run.stateAhead
	if read == nil {
		read = run.readState
	}
	st, err := read()
	if err != nil {
		e.infof("nightly: %v; every file is worked on in full", err)
	}
	return st
}

func (run *nightlyRun) readState() (*nightstate.State, error) {
	return nightstate.Open(run.report+nightstate.Suffix, stateSettings(run))
}

// readStateAhead begins reading the state file on another goroutine, to
// run beside the walk, when runNightly will read it: a report file that
// is not a dry run's, and, run as root, one only root controls (else
// runNightly refuses it before anything is read). Read after the walk, it
// was 3 ms of a second run's 50 on one core (issue 28).
func (run *nightlyRun) readStateAhead() {
	if run.dryRun || !reportIsFile(run.report) || separatedRun() && reportIsRoots(run.report) != nil {
		return
	}
	type result struct {
		st  *nightstate.State
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := run.readState()
		done <- result{st, err}
	}()
	run.stateAhead = func() (*nightstate.State, error) {
		r := <-done
		return r.st, r.err
	}
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

// stamped is the stamp a file had before it was read, and a time before it
// was taken, for the state file; ok is false when there is none.
type stamped struct {
	stamp nightstate.Stamp
	at    time.Time
	ok    bool
}

// stampOf is t's stamp: the walk's stat of it when the walk took one (a
// file found in a folder), else a stat now.
func (run *nightlyRun) stampOf(t target) stamped {
	if t.info != nil {
		s, ok := nightstate.StampOf(t.info)
		return stamped{s, run.walked, ok}
	}
	at := time.Now()
	s, err := nightstate.StampFile(t.path)
	return stamped{s, at, err == nil}
}

// remembered returns the previous run's result for t when t still has the
// stamp it had then and that result is still the decision now; otherwise ok
// is false and s is the stamp to record once t is worked on.
func (run *nightlyRun) remembered(t target) (prev nightstate.Entry, s stamped, ok bool) {
	s = run.stampOf(t)
	if !s.ok {
		return prev, s, false
	}
	prev, ok = run.state.Remembered(t.path, s.stamp)
	return prev, s, ok && stillDecided(run, t, s.stamp)
}

// interruptedArchive reports whether t, a X.jsonl, has X.jsonl.zst beside
// it (archive.Interrupted). For a file found in a folder the walk answers
// without a stat: it lists every name there with a session's suffix, a
// .jsonl.zst too (but a hard link to a file it listed already only once).
func (run *nightlyRun) interruptedArchive(t target) bool {
	if t.info == nil {
		return archive.Interrupted(t.path)
	}
	return len(run.found) > 0 && strings.HasSuffix(t.path, ".jsonl") && run.found[t.path+archive.Suffix]
}

// foundArchives is the set of the archives (X.jsonl.zst) the walk found in
// folders: mostly none, where a set of every path found cost 10,000 map
// entries (issue 28).
func foundArchives(targets []target) map[string]bool {
	found := map[string]bool{}
	for _, t := range targets {
		if !t.named && strings.HasSuffix(t.path, archive.Suffix) {
			found[t.path] = true
		}
	}
	return found
}
