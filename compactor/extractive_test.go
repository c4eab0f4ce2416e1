package compactor

import (
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestFailedExitReadsTheNumber: an exit code is read as a number, so 0.0 and
// -0 are a success, as JSON.parse reads them.
func TestFailedExitReadsTheNumber(t *testing.T) {
	for raw, want := range map[string]bool{`0`: false, `0.0`: false, `-0`: false, `0e3`: false, `null`: false, ``: false,
		`1`: true, `127`: true, `-1`: true, `1.0`: true, `"0"`: false} {
		if got := failedExit(jsonl.RawMessage(raw)); got != want {
			t.Errorf("failedExit(%s) = %v, want %v", raw, got, want)
		}
	}
}
