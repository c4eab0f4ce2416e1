package runner

import (
	"io"
	"strings"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestPrinter: a result prints as its row with JSON (no HTML escaping) and
// as its text without; a skipped file's reason shows control characters.
func TestPrinter(t *testing.T) {
	ns := &jsonl.NotSessionError{File: "d/x\x1b[2J.jsonl", Reason: "binary <data>"}
	for _, tc := range []struct {
		json bool
		want string
	}{
		{true, `{"file":"d/x\u001b[2J.jsonl","skipped":"not a Pi session (binary <data>)"}` + "\n"},
		{false, "d/x\\x1b[2J.jsonl: skipped: not a Pi session (binary <data>)\n"},
	} {
		var b strings.Builder
		if err := (Printer{Out: &b, JSON: tc.json}).Print(Skipped(ns)); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("JSON=%v: printed %q, want %q", tc.json, b.String(), tc.want)
		}
	}
	var b strings.Builder
	text := Result{Text: func(w io.Writer) error { _, err := io.WriteString(w, "text\n"); return err }}
	if err := (Printer{Out: &b, JSON: true}).Print(text); err != nil || b.Len() != 0 {
		t.Errorf("a result without a row printed %q with JSON (%v)", b.String(), err)
	}
}

// TestSkippedNote: the note counts the skipped files and says why, and is
// empty when none was skipped.
func TestSkippedNote(t *testing.T) {
	if got := (Tally{Files: 3}).SkippedNote(); got != "" {
		t.Errorf("no skips: %q", got)
	}
	if got, want := (Tally{Files: 3, Skipped: 2}).SkippedNote(), "; 2 skipped: not Pi sessions"; got != want {
		t.Errorf("SkippedNote = %q, want %q", got, want)
	}
}
