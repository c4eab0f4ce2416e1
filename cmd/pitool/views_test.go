package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/internal/testref"
)

// pitoolOut runs the CLI in-process and returns its standard output.
func pitoolOut(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"pitool"}, args...), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("pitool %v exited %d: %s", args, code, stderr.String())
	}
	return stdout.Bytes()
}

func golden(name string) string { return filepath.Join(testref.RepoRoot(), "testdata", "golden", name) }

var viewFiles = []string{"v3/branched.jsonl", "v3/linear.jsonl", "v3/agent-run.jsonl", "v3/crashed.jsonl", "real/large-session.jsonl", "real/before-compaction.jsonl"}

func TestTreeMatchesPi(t *testing.T) {
	for _, rel := range viewFiles[:4] { // v1 files get random ids in Pi: compared by shape in TestTreeShapeV1
		want := testref.Golden(t, golden(goldenName(rel, "tree")), "tree", testref.Corpus(rel))
		testref.AssertJSONEqual(t, rel+" tree", pitoolOut(t, "tree", "--json", testref.Corpus(rel)), want)
	}
}

func TestTreeShapeV1(t *testing.T) {
	rel := "real/before-compaction.jsonl"
	want := testref.Golden(t, golden(goldenName(rel, "tree")), "tree", testref.Corpus(rel))
	var got, ref struct {
		Rows []struct {
			Type  string
			Depth int
		}
	}
	json.Unmarshal(pitoolOut(t, "tree", "--json", testref.Corpus(rel)), &got)
	json.Unmarshal(want, &ref)
	if len(got.Rows) != len(ref.Rows) || len(got.Rows) == 0 {
		t.Fatalf("%d rows, pi has %d", len(got.Rows), len(ref.Rows))
	}
	for i := range got.Rows {
		if got.Rows[i] != ref.Rows[i] {
			t.Fatalf("row %d: %+v, pi has %+v", i, got.Rows[i], ref.Rows[i])
		}
	}
}

// piInfoFields are the /resume fields pitool info shares with Pi.
type piInfoFields struct {
	ID, Cwd, Name, ParentSessionPath, Created, Modified, FirstMessage string
	MessageCount                                                      int
}

func TestInfoMatchesPi(t *testing.T) {
	for _, rel := range viewFiles {
		var got, want piInfoFields
		json.Unmarshal(testref.Golden(t, golden(goldenName(rel, "info")), "info", testref.Corpus(rel)), &want)
		json.Unmarshal(pitoolOut(t, "info", "--json", testref.Corpus(rel)), &got)
		if got != want {
			t.Errorf("%s: info\n got %+v\nwant %+v", rel, got, want)
		}
	}
}

func TestLsMatchesPi(t *testing.T) {
	var got, want []piInfoFields
	// The folder is named relative to this package, so that the paths Pi
	// prints into the golden are the same in every clone.
	json.Unmarshal(testref.Golden(t, golden("v3.ls.json"), "ls", filepath.Join("..", "..", "testdata", "corpus", "v3")), &want)
	json.Unmarshal(pitoolOut(t, "ls", "--json", testref.Corpus("v3")), &got)
	if len(got) != len(want) || len(got) != 4 {
		t.Fatalf("ls lists %d sessions, pi %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func goldenName(rel, kind string) string {
	return filepath.Base(filepath.Dir(rel)) + "-" + filepath.Base(rel[:len(rel)-len(".jsonl")]) + "." + kind + ".json"
}

// TestTokensEmptyContextMatchesPi checks tokens at a leaf whose context holds
// no message (branched.jsonl's first entry, a model change): Pi prints an
// empty perMessage array there, not null.
func TestTokensEmptyContextMatchesPi(t *testing.T) {
	rel, leaf := "v3/branched.jsonl", "655c41b8"
	want := testref.Golden(t, golden(goldenName(rel, "leaf-"+leaf+".tokens")), "tokens", testref.Corpus(rel), "--leaf", leaf)
	got := pitoolOut(t, "tokens", "--leaf", leaf, testref.Corpus(rel))
	if !bytes.Contains(want, []byte(`"perMessage":[]`)) {
		t.Fatalf("the golden's context is not empty: %s", want)
	}
	testref.AssertJSONEqual(t, rel+" tokens at "+leaf, got, want) // tells null from []
}
