package jsonl_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// wantProblem is a RequestProblem by ids: kind, call id, result entry, call
// entry ("" when none), cause and the entry that caused it ("" when none).
type wantProblem struct {
	kind             jsonl.RequestProblemKind
	call, result, in string
	cause            jsonl.RequestCause
	by               string
}

func (w wantProblem) of(p jsonl.RequestProblem) bool {
	return p.Kind == w.kind && p.ToolCallID == w.call && p.Result.ID == w.result && p.Call.ID == w.in &&
		p.Cause == w.cause && p.By.ID == w.by
}

// requestCases are the sessions of testdata/request (see its README) and the
// corpus session Pi's own SessionManager wrote with three orphaned results,
// each with the problems at its active leaf.
var requestCases = []struct {
	rel  string
	want []wantProblem
}{
	{"../request/valid.jsonl", nil},
	{"../request/compaction-kept-result.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_read_02", "r0000005", "a0000004", jsonl.CauseCompaction, "c0000009"}}},
	{"../request/hook-compaction-kept-result.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_read_02", "r0000005", "a0000004", jsonl.CauseCompaction, "c0000009"}}},
	{"../request/edit-dropped-call.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_read_02", "r0000005", "a0000004", jsonl.CauseEditDropped, "e0000009"}}},
	{"../request/edit-replaced-call.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_read_02", "r0000005", "a0000004", jsonl.CauseEditReplaced, "e0000009"}}},
	{"../request/answered-twice.jsonl", []wantProblem{
		{jsonl.AnsweredTwice, "toolu_read_02", "r0000004", "a0000002", jsonl.CauseRepeated, "r0000003"}}},
	{"../request/aborted-call-answered.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_read_02", "r0000003", "a0000002", jsonl.CauseFailedTurn, ""}}},
	{"../request/result-after-user.jsonl", []wantProblem{
		{jsonl.CallInEarlierTurn, "toolu_read_02", "r0000004", "a0000002", jsonl.CauseInterrupted, "u0000003"}}},
	{"../request/result-before-call.jsonl", []wantProblem{
		{jsonl.CallAfterResult, "toolu_read_02", "r0000002", "a0000003", jsonl.CauseOrder, ""}}},
	{"../request/off-active-branch.jsonl", nil},
	{"secrets/session.jsonl", []wantProblem{
		{jsonl.CallAbsent, "toolu_0f888fa3a7da2d7a896b24d810", "7aafba8b", "5b9116ac", jsonl.CauseEditReplaced, "e9cfed23"},
		{jsonl.CallAbsent, "toolu_2000883d4ef21b421549afd4122", "f8e29edc", "dccb55ec", jsonl.CauseEditReplaced, "4e9bf327"},
		{jsonl.CallAbsent, "toolu_8ed41c51518814817049fe65125", "9b853645", "f8362b12", jsonl.CauseEditReplaced, "78b9d8a4"}}},
}

// TestCheckRequestFindsEveryProblem checks the active leaf of each case: the
// check names exactly the problems expected, pitool's provider view equals
// pi-ref's, and the orphans the check reports are exactly the tool results of
// pi-ref's view whose call no earlier assistant message holds.
func TestCheckRequestFindsEveryProblem(t *testing.T) {
	for _, tc := range requestCases {
		t.Run(tc.rel, func(t *testing.T) {
			ix := indexCorpus(t, tc.rel)
			got, err := ix.CheckRequest(ix.ActiveLeaf())
			if err != nil {
				t.Fatal(err)
			}
			assertProblems(t, got, tc.want)
			want := testref.Golden(t, goldenPath(tc.rel, "provider"), "provider", testref.Corpus(tc.rel))
			testref.AssertJSONEqual(t, "provider view", viewJSON(t, ix, ix.ActiveLeaf(), jsonl.ViewProvider), want)
			if orphans := viewOrphans(t, want); !slices.Equal(orphans, orphanCalls(got)) {
				t.Errorf("pi-ref's view has orphans %v, the check reports %v", orphans, orphanCalls(got))
			}
		})
	}
}

func assertProblems(t *testing.T, got []jsonl.RequestProblem, want []wantProblem) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d problems %v, want %d %v", len(got), got, len(want), want)
	}
	for k, p := range got {
		if !want[k].of(p) {
			t.Errorf("problem %d: got %v, want %+v", k, p, want[k])
		}
		if p.Result.Line == 0 || (p.Call.ID != "" && p.Call.Line == 0) {
			t.Errorf("problem %d names no line: %+v", k, p)
		}
	}
}

// TestCheckRequestOffActiveBranch checks every leaf: the one problem of
// off-active-branch.jsonl is at the leaf the user left.
func TestCheckRequestOffActiveBranch(t *testing.T) {
	rel := "../request/off-active-branch.jsonl"
	ix := indexCorpus(t, rel)
	c := jsonl.NewRequestChecker(ix)
	for _, leaf := range ix.Leaves() {
		got, err := c.Check(leaf)
		if err != nil {
			t.Fatal(err)
		}
		var want []wantProblem
		if ix.ID(leaf) == "u0000010" {
			want = []wantProblem{{jsonl.CallAbsent, "toolu_read_02", "r0000005", "a0000004", jsonl.CauseEditDropped, "e0000009"}}
		}
		assertProblems(t, got, want)
		golden := testref.Golden(t, goldenPath(rel, "leaf-"+ix.ID(leaf)+".provider"), "provider", testref.Corpus(rel), "--leaf", ix.ID(leaf))
		testref.AssertJSONEqual(t, "provider view at "+ix.ID(leaf), viewJSON(t, ix, leaf, jsonl.ViewProvider), golden)
		if orphans := viewOrphans(t, golden); !slices.Equal(orphans, orphanCalls(got)) {
			t.Errorf("leaf %s: pi-ref's view has orphans %v, the check reports %v", ix.ID(leaf), orphans, orphanCalls(got))
		}
	}
}

// TestRequestFixClearsEveryProblem appends the fix to a copy of each case
// and checks the result: the input's bytes come first unchanged, pi-ref's
// provider view of it holds no problem (its goldens come from pi-ref on the
// fixed copy, made reproducible by a fixed time and random source), and
// pitool's context equals pi-ref's.
func TestRequestFixClearsEveryProblem(t *testing.T) {
	for _, tc := range requestCases {
		if tc.want == nil {
			continue
		}
		t.Run(tc.rel, func(t *testing.T) {
			orig, err := os.ReadFile(testref.Corpus(tc.rel))
			if err != nil {
				t.Fatal(err)
			}
			fixed := fixedCopy(t, orig)
			if !bytes.HasPrefix(fixed, orig) {
				t.Fatal("the fix does not append to the input")
			}
			file := filepath.Join(t.TempDir(), "fixed.jsonl")
			if err := os.WriteFile(file, fixed, 0o644); err != nil {
				t.Fatal(err)
			}
			ix, closeFn, err := jsonl.IndexFile(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer closeFn()
			if got, err := ix.CheckRequest(ix.ActiveLeaf()); err != nil || len(got) > 0 {
				t.Errorf("after the fix: %v %v", got, err)
			}
			provider := testref.Golden(t, goldenPath(tc.rel, "fixed.provider"), "provider", file)
			testref.AssertJSONEqual(t, "fixed provider view", viewJSON(t, ix, ix.ActiveLeaf(), jsonl.ViewProvider), provider)
			if orphans := viewOrphans(t, provider); len(orphans) > 0 || viewAnswersTwice(t, provider) {
				t.Errorf("pi-ref's view of the fixed file still has orphans %v or double answers", orphans)
			}
			context := testref.Golden(t, goldenPath(tc.rel, "fixed.context"), "context", file)
			testref.AssertJSONEqual(t, "fixed context", viewJSON(t, ix, ix.ActiveLeaf(), jsonl.ViewContext), context)
		})
	}
}

// TestRequestFixShape checks the entries the fix makes against the
// context_edit entries Pi's SessionManager writes (corpus v3/branched.jsonl):
// the same keys in the same order, null replacements, chained from the leaf.
func TestRequestFixShape(t *testing.T) {
	ix := indexCorpus(t, "secrets/session.jsonl")
	problems, err := ix.CheckRequest(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	fix := ix.RequestFix(problems, ix.ActiveLeaf(), now, rand.NewChaCha8([32]byte{1}))
	if len(fix) != len(problems) {
		t.Fatalf("%d entries for %d problems", len(fix), len(problems))
	}
	parent := ix.ID(ix.ActiveLeaf())
	for k, e := range fix {
		if strings.Join(e.Keys, ",") != "type,id,parentId,timestamp,targetId,replacement" {
			t.Errorf("entry %d keys %v", k, e.Keys)
		}
		if e.String("parentId") != parent || e.String("targetId") != problems[k].Result.ID ||
			string(e.Get("replacement")) != "null" || e.String("timestamp") != "2026-12-01T22:00:00.000Z" {
			t.Errorf("entry %d: %s", k, e.AppendJSON(nil))
		}
		if _, taken := ix.Lookup(e.String("id")); taken || len(e.String("id")) != 8 {
			t.Errorf("entry %d: id %q is not fresh", k, e.String("id"))
		}
		parent = e.String("id")
	}
}

// fixedCopy returns a session's bytes with the fix for its active leaf
// appended, at a fixed time and with a fixed random source.
func fixedCopy(t *testing.T, orig []byte) []byte {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(jsonl.StdinName, bytes.NewReader(orig))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	problems, err := ix.CheckRequest(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC)
	out := slices.Clone(orig)
	for _, e := range ix.RequestFix(problems, ix.ActiveLeaf(), now, rand.NewChaCha8([32]byte{7})) {
		out = append(e.AppendJSON(out), '\n')
	}
	return out
}

// viewMessage is what the orphan test reads of a provider view message.
type viewMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"toolCallId"`
	Content    json.RawMessage
}

// viewOrphans decides orphans from a provider view alone: the toolCallId of
// every toolResult message whose call is not among the toolCall blocks of an
// earlier assistant message of the view.
func viewOrphans(t *testing.T, view []byte) []string {
	t.Helper()
	var msgs []viewMessage
	if err := json.Unmarshal(view, &msgs); err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	var orphans []string
	for _, m := range msgs {
		switch m.Role {
		case "assistant":
			var blocks []struct{ Type, ID string }
			_ = json.Unmarshal(m.Content, &blocks)
			for _, b := range blocks {
				if b.Type == "toolCall" {
					called[b.ID] = true
				}
			}
		case "toolResult":
			if !called[m.ToolCallID] {
				orphans = append(orphans, m.ToolCallID)
			}
		}
	}
	return orphans
}

// viewAnswersTwice reports whether a provider view answers one call twice
// between two assistant messages.
func viewAnswersTwice(t *testing.T, view []byte) bool {
	t.Helper()
	var msgs []viewMessage
	if err := json.Unmarshal(view, &msgs); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	for _, m := range msgs {
		switch m.Role {
		case "assistant":
			answered = map[string]bool{}
		case "toolResult":
			if answered[m.ToolCallID] {
				return true
			}
			answered[m.ToolCallID] = true
		}
	}
	return false
}

// orphanCalls lists the call ids of the problems whose result has no call
// before it.
func orphanCalls(problems []jsonl.RequestProblem) []string {
	var out []string
	for _, p := range problems {
		if p.Kind.Orphan() {
			out = append(out, p.ToolCallID)
		}
	}
	return out
}

// TestCheckEveryLeaf checks that every leaf is checked, the active one
// first, and only leaves with problems are returned.
func TestCheckEveryLeaf(t *testing.T) {
	for _, tc := range []struct {
		rel  string
		want []string // leaf ids with problems, the active leaf first when it has any
	}{
		{"../request/off-active-branch.jsonl", []string{"u0000010"}},
		{"../request/edit-dropped-call.jsonl", []string{"u0000010"}},
		{"../request/valid.jsonl", nil},
		{"v3/branched.jsonl", []string{"3c4c1ef3"}}, // see TestCheckRequestEveryLeafOfBranched
	} {
		ix := indexCorpus(t, tc.rel)
		got, err := jsonl.NewRequestChecker(ix).CheckEveryLeaf()
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, lr := range got {
			ids = append(ids, ix.ID(lr.Leaf))
			if lr.Active != (lr.Leaf == ix.ActiveLeaf()) {
				t.Errorf("%s: leaf %s marked active %v", tc.rel, ix.ID(lr.Leaf), lr.Active)
			}
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("%s: leaves with problems %v, want %v", tc.rel, ids, tc.want)
		}
	}
}

// TestCheckRequestEveryLeafOfBranched compares the check at every leaf of
// the corpus's branched session (written by Pi's SessionManager) with what
// pi-ref's provider view at that leaf refuses. One leaf the user left,
// 3c4c1ef3, has an orphan: context edit 0b46378c dropped assistant a87b3921,
// whose call result 2fc74443 still answers.
func TestCheckRequestEveryLeafOfBranched(t *testing.T) {
	rel := "v3/branched.jsonl"
	ix := indexCorpus(t, rel)
	c := jsonl.NewRequestChecker(ix)
	for _, leaf := range ix.Leaves() {
		id := ix.ID(leaf)
		problems, err := c.Check(leaf)
		if err != nil {
			t.Fatal(err)
		}
		view := testref.Golden(t, goldenPath(rel, "leaf-"+id+".provider"), "provider", testref.Corpus(rel), "--leaf", id)
		testref.AssertJSONEqual(t, "provider view at "+id, viewJSON(t, ix, leaf, jsonl.ViewProvider), view)
		if got, want := problemCalls(problems), testref.RefusedResults(t, view); !slices.Equal(got, want) {
			t.Errorf("leaf %s: the check reports %v, pi-ref's view refuses %v", id, problems, want)
		}
		if id == "3c4c1ef3" {
			assertProblems(t, problems, []wantProblem{{jsonl.CallAbsent, "toolu_9153dda8b7ed766215f150480", "2fc74443", "a87b3921", jsonl.CauseEditDropped, "0b46378c"}})
		}
	}
}
