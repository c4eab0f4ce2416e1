package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// deepDepths are the nesting depths a session's line is tested at: over
// repair's old limit (4,096), the index's (10,000), and up to what V8's
// JSON.parse reads in Pi.
var deepDepths = []int{5_000, 10_001, 100_000, 1_000_000}

// deepSession writes v3/linear.jsonl with two lines nested depth deep, and
// returns its path: a tool result whose details (which Pi keeps in context)
// are arrays nested depth deep, and, after the last entry, a custom entry
// whose data (which Pi does not show) is as deep, parent of one more user
// message.
func deepSession(t *testing.T, depth int) string {
	t.Helper()
	data, err := os.ReadFile(testref.Corpus("v3/linear.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	lines[134] = withDetails(t, lines[134], deep)
	lines = append(lines,
		`{"type":"custom","customType":"deep","data":`+deep+`,"id":"c0ffee01","parentId":"a7bc1895","timestamp":"2026-12-01T00:07:28.000Z"}`+"\n",
		`{"type":"message","id":"c0ffee02","parentId":"c0ffee01","timestamp":"2026-12-01T00:07:29.000Z","message":{"role":"user","content":"after the deep line","timestamp":1767225700000}}`+"\n")
	path := filepath.Join(t.TempDir(), fmt.Sprintf("deep-%d.jsonl", depth))
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// withDetails sets the details of the tool result message on line.
func withDetails(t *testing.T, line, details string) string {
	t.Helper()
	entry, err := jsonl.ParseObject([]byte(strings.TrimSuffix(line, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := jsonl.ParseObject(entry.Get("message"))
	if err != nil || msg.String("role") != "toolResult" {
		t.Fatalf("line 135 is not a tool result: %v", err)
	}
	msg.Set("details", jsonl.RawMessage(details))
	entry.Set("message", msg.AppendJSON(nil))
	return string(entry.AppendJSON(nil)) + "\n"
}

// TestDeepNesting: a valid line nested up to a million deep is read as Pi
// reads it. pitool context equals pi-ref context byte for byte (both deep
// values kept, no message lost), and tokens equal pi-ref's; validate finds
// nothing, and repair leaves the file as it is. The goldens are pi-ref's
// output, gzipped; scripts/pi-ref prints deep values without recursion, so
// -update remakes even the million-deep one in seconds.
func TestDeepNesting(t *testing.T) {
	for _, depth := range deepDepths {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			path := deepSession(t, depth)
			want := deepGolden(t, golden(fmt.Sprintf("nesting-%d.context.json.gz", depth)), path)
			if got := pitoolOut(t, "context", path); !bytes.Equal(got, want) {
				t.Errorf("context (%d bytes, sha256 %x) differs from pi-ref's (%d bytes, sha256 %x)", len(got), sha256.Sum256(got), len(want), sha256.Sum256(want))
			}
			tokens := testref.Golden(t, golden(fmt.Sprintf("nesting-%d.tokens.json", depth)), "tokens", path)
			testref.AssertJSONEqual(t, "tokens", pitoolOut(t, "tokens", path), tokens)
			if out := string(pitoolOut(t, "validate", path)); !strings.Contains(out, "1 clean, 0 with findings") {
				t.Errorf("validate: %s", out)
			}
			repaired := filepath.Join(t.TempDir(), "repaired.jsonl")
			pitoolOut(t, "repair", "--force", "-o", repaired, path)
			if a, b := readFile(t, path), readFile(t, repaired); !bytes.Equal(a, b) {
				t.Errorf("repair changed the file (%d bytes to %d)", len(a), len(b))
			}
		})
	}
}

// deepGolden returns the gzipped golden, regenerated with pi-ref's context
// of session when -update is set.
func deepGolden(t *testing.T, golden, session string) []byte {
	t.Helper()
	if *testref.Update {
		out, err := testref.Run("context", session)
		if err != nil {
			t.Fatal(err)
		}
		err = safefile.WriteFile(golden, safefile.Options{}, func(w io.Writer) error {
			zw := gzip.NewWriter(w)
			if _, err := zw.Write(out); err != nil {
				return err
			}
			return zw.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	zr, err := gzip.NewReader(bytes.NewReader(readFile(t, golden)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to produce it from pi-ref)", err)
	}
	return b
}

// TestDeepNestingInfo: a deep value before the fields that info and tree
// read (a message's timestamp, an entry's timestamp) hides none of them:
// info and tree equal pi-ref's.
func TestDeepNestingInfo(t *testing.T) {
	path := deepSession(t, 100_000)
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	line := `{"type":"message","id":"c0ffee03","parentId":"c0ffee02","message":{"details":` + deep +
		`,"role":"user","content":"deep first","timestamp":1767225999000},"timestamp":"2026-12-01T00:07:30.000Z"}` + "\n"
	if err := os.WriteFile(path, append(readFile(t, path), line...), 0o644); err != nil {
		t.Fatal(err)
	}
	var got, want piInfoFields
	json.Unmarshal(testref.Golden(t, golden("nesting-info.info.json"), "info", path), &want)
	json.Unmarshal(pitoolOut(t, "info", "--json", path), &got)
	if got != want {
		t.Errorf("info\n got %+v\nwant %+v", got, want)
	}
	want2 := testref.Golden(t, golden("nesting-info.tree.json"), "tree", path)
	testref.AssertJSONEqual(t, "tree", pitoolOut(t, "tree", "--json", path), want2)
}
