package redact

import (
	"strings"
	"testing"
)

// TestDeepNesting: a line nested as deep as JSON.parse reads is walked
// without recursion. The secret at its bottom is replaced, with the path
// down to it, and everything else is left as it was.
func TestDeepNesting(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "s", Secrets: []string{"hunter2-correct-horse"}})
	for _, depth := range []int{10_001, 1_000_000} {
		open, close := strings.Repeat(`[{"k":`, depth), strings.Repeat(`}]`, depth)
		line := `{"type":"custom","data":` + open + `"hunter2-correct-horse"` + close + `,"id":"x"}`
		out, findings, err := r.RedactLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if len(findings) != 1 || !strings.HasPrefix(findings[0].JSONPath, `$.data[0].k[0].k`) || findings[0].EntryType != "custom" {
			t.Fatalf("depth %d: %d findings", depth, len(findings))
		}
		redacted := strings.Replace(line, "hunter2-correct-horse", findings[0].Placeholder, 1)
		if string(out) != redacted {
			t.Errorf("depth %d: the line changed beyond its secret", depth)
		}
	}
}
