package main

import (
	"strings"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/jsonl"
)

// The commands that walk folders list each file that is not a Pi session
// (see jsonl's package doc) as skipped, with the reason, and change nothing
// in it. A file the user named is an error instead, exit 2.

// Such a file is printed as runner.Skipped prints it.

// noteSkipped tells the user on stderr that a file was left alone.
func noteSkipped(e *env, ns *jsonl.NotSessionError) {
	e.warningf("%s: skipped: %s", ns.File, ns.Describe())
}

// noteCompactSkip reports a compaction skipped because the file is not a Pi
// session: a note for a file found in a folder, an error for one the user
// named (counted, 1, so the run exits 2).
func noteCompactSkip(e *env, o compactor.Outcome, named bool) int {
	ns, ok := jsonl.IsNotSession(o.Err)
	switch {
	case !ok || o.Status != compactor.Skipped:
		return 0
	case named:
		e.errorf("%v", ns)
		return 1
	}
	noteSkipped(e, ns)
	return 0
}

// nightlyGate skips a file that is not a Pi session before any nightly step
// (archive, repair, compact) can change it. ok is false when r is final.
func nightlyGate(r fileReport) (fileReport, bool) {
	err := jsonl.CheckSessionFile(r.file)
	if ns, isNS := jsonl.IsNotSession(err); isNS {
		r.notSession = ns
		return r.did(actSkipped, ns.Describe()), false
	}
	if err != nil {
		return r.failed(err), false
	}
	return r, true
}

// skipNotSession takes back the report of the file just added, which is not a
// Pi session and was left alone, and lists it as skipped under name (its
// path, redacted when it holds a secret).
func (rep *redactReport) skipNotSession(name string, ns *jsonl.NotSessionError) {
	rep.Files = rep.Files[:len(rep.Files)-1]
	rep.skip(name, ns.Describe())
}

// The read commands (stats, search, info, ls; validate counts the same way)
// share one rule for a file they cannot read as a Pi session, applied by
// readFailures.note:
//
//   - a file named on the command line (or -) that is not a Pi session or
//     cannot be read is an error, "PATH: reason", and the run exits 2;
//   - a file found in a folder that is not a Pi session (binary data, UTF-16,
//     other JSONL, a FIFO) is skipped with a warning and changes nothing;
//   - a file found in a folder that cannot be read (permission, I/O error,
//     a corrupt .gz or .zst: unreadable) is an error and the run exits 2;
//     one pitool reads but cannot use (a session too damaged to index) is
//     skipped with a warning, as before.
//
// Either way the other files are read and reported first. The commands that
// read one FILE (context, tokens, tree, export) fail on it at once, exit 2.
// An empty file is a session with no entries, as before: Pi refuses to open
// it, which those commands say in a warning.

// helpReadFailures is the rule as the --help of the folder commands gives it.
const helpReadFailures = `Exit status: 2 when a file named on the command line is not a Pi session
(binary data, UTF-16, a corrupt .gz) or cannot be read, or when a file in a
folder cannot be read; a file in a folder that is not a Pi session is skipped
with a warning and does not change the status. The other files are reported
first.`

// helpReadOneFile is the rule as the --help of the one-file commands gives it.
const helpReadOneFile = `Exit status: 0 ok; 2 when FILE is not a Pi session (binary data, UTF-16, a
corrupt .gz), cannot be read, or on a usage error; 130 interrupted. An
empty file is read as a session with no entries, with a warning.`

// readFailures applies the rule above and remembers whether the run must
// exit 2.
type readFailures struct {
	e      *env
	named  map[string]bool
	failed int
}

func newReadFailures(e *env, named ...string) *readFailures {
	rf := &readFailures{e: e, named: map[string]bool{}}
	for _, p := range named {
		rf.named[p] = true
	}
	return rf
}

// note reports err, met reading path, as runner.Judge rules, and returns it
// as a NotSessionError when the file is not a Pi session (for the commands
// that list skipped files).
func (rf *readFailures) note(path string, err error) *jsonl.NotSessionError {
	ns, _ := jsonl.IsNotSession(err)
	switch runner.Judge(rf.named[path], err) {
	case runner.SkipNotSession:
		noteSkipped(rf.e, ns)
		return ns
	case runner.SkipDamaged:
		rf.e.warningf("%s: skipped: %s", path, strings.TrimPrefix(fileError(path, err), path+": "))
		return nil
	}
	rf.failed++
	rf.e.errorf("%s", strings.Replace(fileError(path, err), path+": "+path+": ", path+": ", 1))
	return ns
}

// err is errReported (exit 2, the lines printed already) if a file failed.
func (rf *readFailures) err() error {
	if rf.failed > 0 {
		return errReported
	}
	return nil
}
