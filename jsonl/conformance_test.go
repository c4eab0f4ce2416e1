package jsonl_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

var conformanceFiles = []string{
	"real/before-compaction.jsonl",
	"real/large-session.jsonl",
	"v3/agent-run.jsonl",
	"v3/branched.jsonl",
	"v3/crashed.jsonl",
	"v3/linear.jsonl",
	"../generated/unicode-branched.jsonl", // emoji, CJK and astral characters: UTF-16 counting
	"../generated/tool-heavy.jsonl",
	"../handmade/escaped-names.jsonl", // escaped type names, keys and ids, as JSON.parse reads them
	"../handmade/escaped-roles.jsonl", // every role escaped: v3/agent-run with \u in each "role" value
	"../handmade/repeated-keys.jsonl", // keys written twice, at every level: JSON.parse keeps one member
	"../handmade/invalid-utf8.jsonl",  // bytes that are not UTF-8, one U+FFFD per maximal subpart as Node decodes them
}

func goldenPath(rel, kind string) string {
	name := strings.ReplaceAll(strings.TrimPrefix(strings.TrimSuffix(rel, ".jsonl"), "../"), "/", "-") + "." + kind + ".json"
	return filepath.Join(testref.RepoRoot(), "testdata", "golden", name)
}

func indexCorpus(t *testing.T, rel string) *jsonl.Index {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(testref.Corpus(rel), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeFn() })
	return ix
}

func viewJSON(t *testing.T, ix *jsonl.Index, leaf int, view jsonl.View) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ix.WriteView(&buf, leaf, view); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tokensJSON(t *testing.T, ix *jsonl.Index) []byte {
	t.Helper()
	sel, err := ix.Select(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	var c jsonl.TokenCounter
	if err := ix.Stream(sel, func(pe jsonl.ProjectedEntry) error { c.Add(pe.Messages...); return nil }); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(map[string]any{"perMessage": c.PerMessage, "context": c.Context()})
	return out
}

// TestConformance compares every view with Pi's own answer on the corpus.
func TestConformance(t *testing.T) {
	for _, rel := range conformanceFiles {
		ix := indexCorpus(t, rel)
		for _, view := range []jsonl.View{jsonl.ViewContext, jsonl.ViewLLM, jsonl.ViewProvider} {
			want := testref.Golden(t, goldenPath(rel, string(view)), string(view), testref.Corpus(rel))
			testref.AssertJSONEqual(t, rel+" "+string(view), viewJSON(t, ix, ix.ActiveLeaf(), view), want)
		}
		want := testref.Golden(t, goldenPath(rel, "tokens"), "tokens", testref.Corpus(rel))
		testref.AssertJSONEqual(t, rel+" tokens", tokensJSON(t, ix), want)
	}
}

// TestConformanceEveryLeaf compares the context at every leaf of the branched session.
func TestConformanceEveryLeaf(t *testing.T) {
	const rel = "v3/branched.jsonl"
	ix := indexCorpus(t, rel)
	leaves := ix.Leaves()
	if len(leaves) != 11 {
		t.Fatalf("branched.jsonl has %d leaves, the corpus README says 11", len(leaves))
	}
	for _, leaf := range leaves {
		id := ix.ID(leaf)
		want := testref.Golden(t, goldenPath(rel, "leaf-"+id+".context"), "context", testref.Corpus(rel), "--leaf", id)
		testref.AssertJSONEqual(t, rel+" leaf "+id, viewJSON(t, ix, leaf, jsonl.ViewContext), want)
	}
}

// TestRepeatedKeysAsPiPrints compares the views of a session whose objects
// repeat keys byte for byte with Pi's: JSON-equal is not enough, as a
// decoder keeps one member of a repeated key and would hide a second one
// printed.
func TestRepeatedKeysAsPiPrints(t *testing.T) {
	const rel = "../handmade/repeated-keys.jsonl"
	ix := indexCorpus(t, rel)
	for _, view := range []jsonl.View{jsonl.ViewContext, jsonl.ViewLLM, jsonl.ViewProvider} {
		want := testref.Golden(t, goldenPath(rel, string(view)), string(view), testref.Corpus(rel))
		if got := viewJSON(t, ix, ix.ActiveLeaf(), view); !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
			t.Errorf("%s differs from pi-ref\n got: %s\nwant: %s", view, got, want)
		}
	}
}
