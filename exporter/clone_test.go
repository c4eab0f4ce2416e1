package exporter

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

const corpus = "../testdata/corpus"

// runPiRef runs pi-ref and returns its standard output.
func runPiRef(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := testref.Run(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// golden returns the committed golden, first rewriting it with produce when
// -update is given.
func golden(t *testing.T, name string, produce func() []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *testref.Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, produce(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./exporter -run %s -update with pi-ref)", err, t.Name())
	}
	return b
}

func indexFile(t *testing.T, name string) *jsonl.Index {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeFn() })
	return ix
}

func cloneLines(t *testing.T, ix *jsonl.Index, leaf int) [][]byte {
	t.Helper()
	h := FreshHeader("/home/dev/project", "/src/session.jsonl")
	var buf bytes.Buffer
	if _, err := Clone(&buf, ix, leaf, h); err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
}

var isoTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// normalize checks the fresh parts of a clone (header id and time, label
// ids) for form, then blanks them, so that two clones can be compared.
func normalize(t *testing.T, lines [][]byte) []string {
	t.Helper()
	hdr, err := jsonl.ParseObject(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	id, err := uuid.Parse(hdr.String("id"))
	if err != nil || id.Version() != 7 {
		t.Errorf("header id %q is not a UUIDv7", hdr.String("id"))
	}
	if !isoTime.MatchString(hdr.String("timestamp")) {
		t.Errorf("header timestamp %q is not an ISO time", hdr.String("timestamp"))
	}
	for _, k := range []string{"id", "timestamp", "parentSession"} {
		hdr.Set(k, []byte(`"-"`))
	}
	out := []string{string(hdr.AppendJSON(nil))}
	fresh := map[string]string{}
	for _, l := range lines[1:] {
		out = append(out, normalizeLabel(t, l, fresh))
	}
	return out
}

var shortID = regexp.MustCompile(`^[0-9a-f]{8}$`)

func normalizeLabel(t *testing.T, line []byte, fresh map[string]string) string {
	o, err := jsonl.ParseObject(line)
	if err != nil {
		t.Fatal(err)
	}
	if o.String("type") != "label" {
		return string(line)
	}
	if !shortID.MatchString(o.String("id")) {
		t.Errorf("label id %q is not 8 hex characters", o.String("id"))
	}
	fresh[o.String("id")] = fmt.Sprintf("label-%d", len(fresh))
	o.Set("id", jsonl.QuoteString(fresh[o.String("id")]))
	if p, ok := fresh[o.String("parentId")]; ok {
		o.Set("parentId", jsonl.QuoteString(p))
	}
	return string(o.AppendJSON(nil))
}

// TestCloneMatchesPi compares pitool's clone with pi-ref clone (Pi's own
// createBranchedSession) at every leaf of branched.jsonl.
func TestCloneMatchesPi(t *testing.T) {
	src := filepath.Join(corpus, "v3/branched.jsonl")
	ix := indexFile(t, src)
	for _, leaf := range ix.Leaves() {
		id := ix.ID(leaf)
		t.Run(id, func(t *testing.T) {
			want := golden(t, "clone/branched-"+id+".json", func() []byte { return runPiRef(t, "clone", src, "--leaf", id) })
			elems, err := jsonl.ParseArray(bytes.TrimSpace(want))
			if err != nil {
				t.Fatal(err)
			}
			wantLines := make([][]byte, len(elems))
			for i, e := range elems {
				wantLines[i] = e
			}
			got, exp := normalize(t, cloneLines(t, ix, leaf)), normalize(t, wantLines)
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Errorf("clone at %s differs from pi-ref:\n%s", id, firstDiff(got, exp))
			}
		})
	}
}

func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("line %d:\n got  %.400s\n want %.400s", i+1, g, w)
		}
	}
	return "(same lines)"
}

// TestCloneIDsAreFresh checks that two clones never share their fresh ids.
func TestCloneIDsAreFresh(t *testing.T) {
	ix := indexFile(t, filepath.Join(corpus, "v3/branched.jsonl"))
	a, b := cloneLines(t, ix, ix.ActiveLeaf()), cloneLines(t, ix, ix.ActiveLeaf())
	if bytes.Equal(a[0], b[0]) {
		t.Errorf("two clones have the same header %s", a[0])
	}
	src := indexFile(t, filepath.Join(corpus, "v3/branched.jsonl"))
	for k, l := range a[1:] {
		o, _ := jsonl.ParseObject(l)
		if o.String("type") == "label" {
			if _, clash := src.Lookup(o.String("id")); clash || bytes.Equal(l, b[k+1]) {
				t.Errorf("label line %d is not fresh: %s", k+2, l)
			}
		}
	}
}

// TestPiLoadsClone checks that Pi reads pitool's clone as the branch it came
// from: pitool's context of the clone equals pi-ref context of a clone
// (a golden; with PITOOL_PIREF=1 also pi-ref run live on this very clone).
func TestPiLoadsClone(t *testing.T) {
	src := filepath.Join(corpus, "v3/branched.jsonl")
	ix := indexFile(t, src)
	live := os.Getenv("PITOOL_PIREF") == "1"
	for _, leaf := range ix.Leaves() {
		id := ix.ID(leaf)
		t.Run(id, func(t *testing.T) {
			clone := filepath.Join(t.TempDir(), "clone.jsonl")
			lines := cloneLines(t, ix, leaf)
			if err := os.WriteFile(clone, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			got := contextJSON(t, clone)
			want := golden(t, "clone/context-"+id+".json", func() []byte { return runPiRef(t, "context", clone) })
			if !bytes.Equal(got, bytes.TrimSpace(want)) {
				t.Errorf("context of the clone differs from the golden:\n got  %.300s\n want %.300s", got, want)
			}
			if live && !bytes.Equal(got, bytes.TrimSpace(runPiRef(t, "context", clone))) {
				t.Errorf("pi-ref context of this clone differs from pitool's")
			}
		})
	}
}

func contextJSON(t *testing.T, name string) []byte {
	t.Helper()
	ix := indexFile(t, name)
	proj, err := ix.ProjectLeaf(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	return jsonl.ToValidUTF8(proj.Context.AppendJSON(nil))
}
