package progress

import (
	"bytes"
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
