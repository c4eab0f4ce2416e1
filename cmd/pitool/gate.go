package main

import (
	"fmt"
	"io"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
)

// The commands that walk folders list each file that is not a Pi session
// (see jsonl's package doc) as skipped, with the reason, and change nothing
// in it. A file the user named is an error instead, exit 2.

// printSkipped writes the line (or, asJSON, the object) that lists a file
// skipped because it is not a Pi session.
func printSkipped(w io.Writer, asJSON bool, ns *jsonl.NotSessionError) error {
	if asJSON {
		return writeJSON(w, skippedJSON(ns))
	}
	_, err := fmt.Fprintln(w, termtext.Visible(ns.File+": skipped: "+ns.Describe()))
	return err
}

// skippedFile is the JSON form of a skipped file.
type skippedFile struct {
	File    string `json:"file"`
	Skipped string `json:"skipped"`
}

func skippedJSON(ns *jsonl.NotSessionError) skippedFile {
	return skippedFile{File: ns.File, Skipped: ns.Describe()}
}

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
