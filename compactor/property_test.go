package compactor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// checkCut checks the cut-point invariants of a preparation: the first kept
// entry is on the projected context after the previous compaction, it is not
// a tool result (a call is never separated from its results), and a cut that
// is not a split turn starts a turn.
func checkCut(t *testing.T, name string, proj *jsonl.Projection, p *Preparation) {
	k := -1
	for i, e := range proj.Entries {
		if e.Entry.ID == p.FirstKeptEntryID {
			k = i
		}
	}
	if k < 0 {
		t.Fatalf("%s: firstKeptEntryId %s is not in the context", name, p.FirstKeptEntryID)
	}
	msgs := proj.Entries[k].Messages
	if len(msgs) > 0 && isRole(msgs[0], jsonl.ToolResultRole) {
		t.Errorf("%s: the cut keeps tool result %s without its call", name, p.FirstKeptEntryID)
	}
	history, prefix := p.MessageCounts()
	if !p.IsSplitTurn && prefix > 0 {
		t.Errorf("%s: a turn prefix without a split turn", name)
	}
	total := 0
	for _, m := range proj.Messages {
		if !isRole(m, jsonl.SystemRole) {
			total++
		}
	}
	if n := history + prefix; n == 0 || n > total {
		t.Errorf("%s: %d messages summarized of %d", name, n, total)
	}
}

// TestCutInvariantsOnGeneratedSessions checks the invariants on many shapes
// of generated sessions and budgets, beyond the pi-ref goldens.
func TestCutInvariantsOnGeneratedSessions(t *testing.T) {
	shapes := []gen.Options{
		{Entries: 80}, {Entries: 120, ToolHeavy: true}, {Entries: 60, ToolResultBytes: 20000},
		{Entries: 200, BranchEvery: 30, CompactionEvery: 50}, {Entries: 150, Unicode: true, CompactionEvery: 40},
	}
	for seed := uint64(1); seed <= 6; seed++ {
		for _, shape := range shapes {
			shape.Seed = seed
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, shape); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "s.jsonl")
			os.WriteFile(file, buf.Bytes(), 0o644)
			for _, keep := range []int{1, 300, 2000, 20000} {
				checkFile(t, file, keep)
			}
		}
	}
}

func checkFile(t *testing.T, file string, keep int) {
	s, err := readSession(file, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	tokens, err := s.proj.contextTokens()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.proj.prepare(tokens, Settings{KeepRecentTokens: keep})
	if err != nil {
		t.Fatal(err)
	}
	if p != nil {
		checkCut(t, file, decodedProjection(t, s), p)
	}
}

// decodedProjection is the whole projection of a session's leaf, every
// entry decoded, which the invariants are checked against.
func decodedProjection(t *testing.T, s *session) *jsonl.Projection {
	t.Helper()
	proj, err := s.ix.ProjectLeaf(s.leaf)
	if err != nil {
		t.Fatal(err)
	}
	return proj
}

// fuzzSeedBytes keeps fuzz seeds small (a few dozen entries) so that the
// fuzzer mutates quickly.
const fuzzSeedBytes = 12 << 10

// FuzzPlan feeds arbitrary bytes, seeded with the corpus, through the plan:
// it must never panic or hang, and any preparation must keep the invariants.
func FuzzPlan(f *testing.F) {
	for _, dir := range []string{"v3", "corrupt"} {
		files, _ := filepath.Glob(filepath.Join(corpus, dir, "*.jsonl"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data[:min(len(data), fuzzSeedBytes)], 500)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, keep int) {
		file := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := CompactFile(context.Background(), file, Options{Settings: Settings{KeepRecentTokens: keep % 5000}, Plan: true, Force: true})
		if out.Prep == nil {
			return
		}
		s, err := readSession(file, "", nil)
		if err != nil {
			t.Fatalf("planned a file that does not read: %v", err)
		}
		defer s.close()
		checkCut(t, "fuzz", decodedProjection(t, s), out.Prep)
		out.Prep.PlanFields()
	})
}
