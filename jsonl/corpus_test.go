package jsonl_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// TestDamagedFilesNeverPanicOrHang builds every view of every corrupt corpus
// file: each either succeeds or fails with a positioned error, and the parent
// cycle is reported as one.
func TestDamagedFilesNeverPanicOrHang(t *testing.T) {
	files, _ := filepath.Glob(testref.Corpus("corrupt/*.jsonl"))
	if len(files) != 13 {
		t.Fatalf("found %d corrupt files, the corpus has 13", len(files))
	}
	for _, f := range files {
		ix, closeFn, err := jsonl.IndexFile(f, nil)
		if err != nil {
			t.Errorf("%s: index: %v", filepath.Base(f), err)
			continue
		}
		for _, view := range []jsonl.View{jsonl.ViewContext, jsonl.ViewLLM, jsonl.ViewProvider} {
			err := ix.WriteView(&bytes.Buffer{}, ix.ActiveLeaf(), view)
			var cycle *jsonl.CycleError
			switch {
			case filepath.Base(f) == "parent-cycle.jsonl":
				if !errors.As(err, &cycle) {
					t.Errorf("parent-cycle.jsonl: want a cycle error, got %v", err)
				}
			case err != nil:
				t.Errorf("%s %s: %v", filepath.Base(f), view, err)
			}
		}
		closeFn()
	}
}

// TestWriterMatchesJSONStringify: every line Pi wrote is a fixed point of
// JSON.stringify(JSON.parse(line)), so re-encoding it with pitool's encoder
// (Canonical decodes and re-escapes every string) must give it back unchanged.
func TestWriterMatchesJSONStringify(t *testing.T) {
	for _, rel := range []string{"v3/branched.jsonl", "v3/agent-run.jsonl", "secrets/session.jsonl", "../generated/unicode-branched.jsonl"} {
		f, err := os.Open(testref.Corpus(rel))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for n := 1; sc.Scan(); n++ {
			if got := jsonl.Canonical(sc.Bytes()); !bytes.Equal(got, sc.Bytes()) {
				t.Fatalf("%s:%d: re-encoded line differs from what JSON.stringify wrote", rel, n)
			}
		}
		f.Close()
	}
}
