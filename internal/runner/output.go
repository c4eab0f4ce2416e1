package runner

import (
	"fmt"
	"io"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
)

// Result is what a command's work on one file gives the runner to print:
// its --json row and its text form; either may be nil (nothing printed in
// that form).
type Result struct {
	Row  any
	Text func(io.Writer) error
}

// Printer prints each file's result on Out: with JSON one line of JSON per
// file (through internal/jsonout, ill-formed UTF-8 replaced as Pi's reader
// replaces it), else the result's text.
type Printer struct {
	Out  io.Writer
	JSON bool
}

// Print prints r in the printer's form.
func (p Printer) Print(r Result) error {
	switch {
	case p.JSON && r.Row != nil:
		return writeRow(p.Out, r.Row)
	case !p.JSON && r.Text != nil:
		return r.Text(p.Out)
	}
	return nil
}

// writeRow writes v as one line of JSON.
func writeRow(w io.Writer, v any) error {
	b, err := jsonout.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonl.ToValidUTF8(b), '\n'))
	return err
}

// SkippedRow is the --json row of a file found in a folder that is not a Pi
// session.
type SkippedRow struct {
	File    string `json:"file"`
	Skipped string `json:"skipped"` // the reason
}

// Skipped is the result of a file found in a folder that is not a Pi
// session: the row {"file", "skipped"}, or the line "FILE: skipped: REASON"
// with control characters shown visibly.
func Skipped(ns *jsonl.NotSessionError) Result {
	return Result{
		Row: SkippedRow{File: ns.File, Skipped: ns.Describe()},
		Text: func(w io.Writer) error {
			_, err := fmt.Fprintln(w, termtext.Visible(ns.File+": skipped: "+ns.Describe()))
			return err
		},
	}
}

// FailedRow is the --json row of a file that could not be read (its keys
// in the order validate has always printed them).
type FailedRow struct {
	Error string `json:"error"` // what went wrong, without the file's name
	File  string `json:"file"`
}

// Tally counts a run's files for the summary line at its end.
type Tally struct {
	Files   int // files worked on, unreadable ones included
	Failed  int // files that could not be read
	Skipped int // files found in folders that are not Pi sessions, left alone
}

// SkippedNote is the summary line's note of the skipped files, with the
// reason: "; N skipped: not Pi sessions", or "" when none was.
func (t Tally) SkippedNote() string {
	if t.Skipped == 0 {
		return ""
	}
	return fmt.Sprintf("; %d skipped: not Pi sessions", t.Skipped)
}
