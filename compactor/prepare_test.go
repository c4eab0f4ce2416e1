package compactor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

const corpus = "../testdata/corpus"

// planCase is one pitool-vs-pi-ref prepare comparison.
type planCase struct {
	name string
	file string
	leaf string
	keep int
}

var keeps = []int{500, 2000, 20000}

// generated are synthetic sessions (bench/gen) committed under testdata/gen:
// huge tool results make the tail alone exceed the budget; tool-heavy ones are
// almost only tool calls.
var generated = map[string]gen.Options{
	"tail-over-budget": {Seed: 11, Entries: 24, ToolResultBytes: 100000},
	"tool-heavy":       {Seed: 12, Entries: 400, ToolHeavy: true},
	"tool-heavy-big":   {Seed: 13, Entries: 150, ToolHeavy: true, ToolResultBytes: 12000},
	"branchy":          {Seed: 14, Entries: 500, BranchEvery: 40, CompactionEvery: 120, Unicode: true},
}

func planCases(t *testing.T) []planCase {
	var files []string
	for _, dir := range []string{"real", "v3"} {
		m, _ := filepath.Glob(filepath.Join(corpus, dir, "*.jsonl"))
		files = append(files, m...)
	}
	files = append(files, filepath.Join("..", "testdata", "handmade", "escaped-roles.jsonl")) // roles as JSON.parse reads them
	// system messages kept before a compaction, which the stream passes over
	files = append(files, filepath.Join("..", "testdata", "handmade", "system-before-compaction.jsonl"))
	for name := range generated {
		files = append(files, generatedFile(t, name))
	}
	var cases []planCase
	for _, f := range files {
		for _, k := range keeps {
			cases = append(cases, planCase{name: fmt.Sprintf("%s.k%d", strings.TrimSuffix(filepath.Base(f), ".jsonl"), k), file: f, keep: k})
		}
	}
	return append(cases, branchedLeafCases(t)...)
}

func branchedLeafCases(t *testing.T) []planCase {
	file := filepath.Join(corpus, "v3", "branched.jsonl")
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var cases []planCase
	for _, leaf := range ix.Leaves() {
		for _, k := range keeps {
			id := ix.ID(leaf)
			cases = append(cases, planCase{name: fmt.Sprintf("branched.leaf-%s.k%d", id, k), file: file, leaf: id, keep: k})
		}
	}
	return cases
}

// generatedFile writes a generated session into testdata/gen with -update and
// returns its path; without -update the committed file is used as is.
func generatedFile(t *testing.T, name string) string {
	path := filepath.Join("testdata", "gen", name+".jsonl")
	if !*testref.Update {
		return path
	}
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, generated[name]); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// planJSON is what pitool computes for a case, as pi-ref prepare prints it.
func planJSON(t *testing.T, c planCase) []byte {
	ix, closeFn, err := jsonl.IndexFile(c.file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	leaf, err := ix.ResolveLeaf(c.leaf)
	if err != nil {
		t.Fatal(err)
	}
	path, err := ix.Path(leaf)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ix.DecodePath(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(entries, Settings{ReserveTokens: 16384, KeepRecentTokens: c.keep})
	if err != nil {
		t.Fatal(err)
	}
	if p == nil {
		return []byte("null")
	}
	return p.PlanFields().AppendJSON(nil)
}

// streamedPlanJSON is the plan CompactFile makes through jsonl's streaming
// selection, the route the CLI takes.
func streamedPlanJSON(t *testing.T, c planCase) []byte {
	opts := Options{Settings: Settings{ReserveTokens: 16384, KeepRecentTokens: c.keep}, Plan: true, Messages: true, Leaf: c.leaf}
	out := CompactFile(context.Background(), c.file, opts)
	if out.Status == Failed {
		t.Fatal(out.Err)
	}
	if out.Prep == nil {
		return []byte("null")
	}
	return out.Prep.PlanFields().AppendJSON(nil)
}

func TestPrepareMatchesPiRef(t *testing.T) {
	for _, c := range planCases(t) {
		t.Run(c.name, func(t *testing.T) {
			golden := filepath.Join("testdata", "prepare", c.name+".json")
			if *testref.Update {
				writePrepareGolden(t, c, golden)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./compactor -run TestPrepareMatchesPiRef -update)", err)
			}
			got := planJSON(t, c)
			if streamed := streamedPlanJSON(t, c); !bytes.Equal(streamed, got) {
				t.Fatalf("CompactFile's streamed plan differs from Prepare's\n got: %s\nwant: %s", clip(streamed), clip(got))
			}
			if isLegacy(t, c.file) {
				compareLegacy(t, c, got, bytes.TrimSpace(want), golden)
				return
			}
			if !bytes.Equal(got, bytes.TrimSpace(want)) {
				t.Errorf("plan differs from pi-ref prepare\n got: %s\nwant: %s", clip(got), clip(want))
			}
		})
	}
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

func isLegacy(t *testing.T, file string) bool {
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	return ix.Version < 2
}

// compareLegacy compares a v1 file's plan without firstKeptEntryId, then checks
// that pitool's firstKeptEntryId names the line pi-ref's did.
func compareLegacy(t *testing.T, c planCase, got, want []byte, golden string) {
	var g, w map[string]json.RawMessage
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	gotID, _ := strconv.Unquote(string(g["firstKeptEntryId"]))
	delete(g, "firstKeptEntryId")
	delete(w, "firstKeptEntryId")
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if !bytes.Equal(gb, wb) {
		t.Errorf("plan differs from pi-ref prepare\n got: %s\nwant: %s", clip(gb), clip(wb))
	}
	line, err := os.ReadFile(strings.TrimSuffix(golden, ".json") + ".line")
	if err != nil {
		t.Fatal(err)
	}
	ix, closeFn, err := jsonl.IndexFile(c.file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	i, ok := ix.Lookup(gotID)
	if !ok || strconv.Itoa(ix.LineNum(i)) != strings.TrimSpace(string(line)) {
		t.Errorf("firstKeptEntryId %s is line %d, pi-ref kept line %s", gotID, ix.LineNum(i), line)
	}
}

// writePrepareGolden runs pi-ref prepare (and, for v1 files, pi-ref migrate
// with counter ids to find the line the kept id names).
func writePrepareGolden(t *testing.T, c planCase, golden string) {
	args := []string{"prepare", c.file, "--keep-recent-tokens", strconv.Itoa(c.keep)}
	if c.leaf != "" {
		args = append(args, "--leaf", c.leaf)
	}
	out := piRef(t, args...)
	writeFile(t, golden, out)
	if !isLegacy(t, c.file) {
		return
	}
	var p struct {
		FirstKeptEntryID string `json:"firstKeptEntryId"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	var migrated []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(piRef(t, "migrate", c.file), &migrated); err != nil {
		t.Fatal(err)
	}
	for k, e := range migrated {
		if e.ID == p.FirstKeptEntryID {
			writeFile(t, strings.TrimSuffix(golden, ".json")+".line", []byte(strconv.Itoa(k+1)+"\n"))
			return
		}
	}
	t.Fatalf("pi-ref's firstKeptEntryId %s is not in pi-ref migrate", p.FirstKeptEntryID)
}

// piRef runs the reference (testref.Run, whose fixed ids make the v1 ids of
// pi-ref prepare and pi-ref migrate agree) and returns its output.
func piRef(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := testref.Run(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t *testing.T, path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
