package repair_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
)

// requestCodes are the finding codes of the request check at the active leaf.
var requestCodes = []string{"request.orphan-result", "request.call-in-earlier-turn", "request.answered-twice"}

// TestRepairFixesRequest repairs each broken request session of
// testdata/request: validate reports one request finding per refused result
// (or tools.orphan-result where the call is on no branch above), repair's
// output starts with the input unchanged when nothing else needed repair, and
// its provider and context views (pitool's, which equal pi-ref's) are the
// goldens pi-ref made from phase 1's fixed copies: no orphan is left.
func TestRepairFixesRequest(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testref.RepoRoot(), "testdata", "request", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no request sessions")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rep := validateBytes(t, in)
			out, _, _ := repairBytes(t, in, repair.Options{})
			after := validateBytes(t, out)
			for _, code := range append(requestCodes, "tools.orphan-result") {
				if hasCode(after, code) {
					t.Errorf("%s left after repair", code)
				}
			}
			golden := filepath.Join(testref.RepoRoot(), "testdata", "golden", "request-"+name+".fixed.provider.json")
			want, err := os.ReadFile(golden)
			if err != nil {
				return // no fix expected: the valid, off-branch and quarantine cases
			}
			switch {
			case quarantined[name]:
				if !hasCode(rep, "tools.orphan-result") || hasAnyCode(rep, requestCodes) {
					t.Errorf("want tools.orphan-result alone, got %v", rep.Codes())
				}
			case !hasAnyCode(rep, requestCodes):
				t.Errorf("validate reports no request finding: %v", rep.Codes())
			case !bytes.HasPrefix(out, in):
				t.Errorf("the repaired file does not start with the input")
			}
			ix := indexBytes(t, out)
			testref.AssertJSONEqual(t, "provider view", view(t, ix, jsonl.ViewProvider), want)
			wantCtx, err := os.ReadFile(strings.Replace(golden, ".provider.", ".context.", 1))
			if err != nil {
				t.Fatal(err)
			}
			testref.AssertJSONEqual(t, "context view", view(t, ix, jsonl.ViewContext), wantCtx)
		})
	}
}

// quarantined are the cases whose result has no call above it on its
// branch: tools.orphan-result reports them, and repair moves the result to
// the quarantine rather than appending an edit.
var quarantined = map[string]bool{"aborted-call-answered": true, "result-before-call": true}

func hasAnyCode(rep *repair.Report, codes []string) bool {
	for _, c := range codes {
		if hasCode(rep, c) {
			return true
		}
	}
	return false
}

func indexBytes(t testing.TB, b []byte) *jsonl.Index {
	t.Helper()
	ix, err := jsonl.IndexReaderAt("mem.jsonl", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func view(t testing.TB, ix *jsonl.Index, v jsonl.View) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ix.WriteView(&buf, ix.ActiveLeaf(), v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestValidateChecksRequestOfEveryInput validates a session whose request
// holds an orphaned tool result as a plain file, gzip- and zstd-compressed,
// and on stdin: each reports request.orphan-result, as nightly needs for
// files of every format.
func TestValidateChecksRequestOfEveryInput(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join(testref.RepoRoot(), "testdata", "request", "compaction-kept-result.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inputs := map[string]string{}
	for _, name := range []string{"s.jsonl", "s.jsonl.gz", "s.jsonl.zst"} {
		path := filepath.Join(dir, name)
		var buf bytes.Buffer
		w, err := jsonl.NewWriter(&buf, jsonl.CompressionForName(name))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(plain)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		inputs[name] = path
	}
	inputs["stdin"] = jsonl.StdinName
	for name, path := range inputs {
		rep, err := repair.ValidateFile(t.Context(), path, bytes.NewReader(plain), repair.ValidateOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, f := range rep.Findings {
			found = found || f.Code == "request.orphan-result"
		}
		if !found {
			t.Errorf("%s: no request.orphan-result in %+v", name, rep.Findings)
		}
	}
}
