package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestNotATerminalDrawsNothing(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, 10, "compact")
	b.Add(3)
	b.Finish()
	if b != nil || buf.Len() != 0 {
		t.Fatalf("bar %v wrote %q to a buffer", b, buf.String())
	}
}

func TestLine(t *testing.T) {
	var buf bytes.Buffer
	b := &Bar{w: &buf, label: "compact", total: 4}
	b.Add(2)
	if got := buf.String(); !strings.Contains(got, "compact [===============               ] 2/4") {
		t.Fatalf("line %q", got)
	}
}

// TestDevNullDrawsNothing: /dev/null is a character device, not a terminal
// that shows a bar.
func TestDevNullDrawsNothing(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if b := New(f, 10, "nightly"); b != nil {
		t.Fatalf("a bar on %s: %v", os.DevNull, b)
	}
}
