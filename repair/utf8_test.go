package repair_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/repair"
)

// TestV1KeptIndexCountsInvalidUTF8: Pi reads a file as UTF-8, with U+FFFD
// for invalid bytes, before JSON.parse sees a line, so a line holding
// invalid UTF-8 in a string is parsed and counts among the lines a v1
// compaction's firstKeptEntryIndex counts. In testdata/v1-invalid-utf8.jsonl
// lines 2 and 4 (from 0, the header) hold such bytes, and the compaction
// keeps from line 4. validate must find no first-kept problem, and pitool's
// context, of the file and of its repair, must be Pi's (the golden, from
// pi-ref).
func TestV1KeptIndexCountsInvalidUTF8(t *testing.T) {
	path := filepath.Join("testdata", "v1-invalid-utf8.jsonl")
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep := validateBytes(t, in)
	if !hasCode(rep, "line.invalid-utf8") {
		t.Errorf("validate does not see the invalid UTF-8: %v", rep.Codes())
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Code, "compaction.") {
			t.Errorf("validate: %s at line %d: %s", f.Code, f.Line, f.Message)
		}
	}
	want := testref.Golden(t, filepath.Join("testdata", "golden", "v1-invalid-utf8.jsonl.context.json"), "context", path)
	testref.AssertJSONEqual(t, "context", contextOf(t, in), want)
	out, _, _ := repairFile(t, in, repair.Options{})
	testref.AssertJSONEqual(t, "context of the repaired file", contextOf(t, out), want)
}
