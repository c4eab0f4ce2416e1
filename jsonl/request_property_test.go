package jsonl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// requestPropertySeeds is how many random sessions the property test breaks.
const requestPropertySeeds = 150

// TestRequestCheckProperty breaks sessions from the bench generator with
// random compactions (firstKeptEntryId any entry of the path, tool results
// included, fromHook or not), context edits (dropping a message, replacing an
// assistant's content with text), repeated tool results and user messages,
// all appended at the active leaf. For each it decides from pitool's provider
// view alone (equal to pi-ref's, see TestConformance) which tool results are
// orphans and which break their exchange, and checks that the request check
// reports exactly those, and that after RequestFix the view has none.
func TestRequestCheckProperty(t *testing.T) {
	broken := 0
	for seed := range uint64(requestPropertySeeds) {
		session := brokenSession(t, seed)
		ix := indexBytes(t, session)
		problems, err := ix.CheckRequest(ix.ActiveLeaf())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		view := viewJSON(t, ix, ix.ActiveLeaf(), jsonl.ViewProvider)
		if orphans := viewOrphans(t, view); !slices.Equal(orphans, orphanCalls(problems)) {
			t.Fatalf("seed %d: the view has orphans %v, the check reports %v", seed, orphans, problems)
		}
		if refused := testref.RefusedResults(t, view); !slices.Equal(refused, problemCalls(problems)) {
			t.Fatalf("seed %d: the view refuses results for %v, the check reports %v", seed, refused, problems)
		}
		if len(problems) == 0 {
			continue
		}
		broken++
		fixed := slices.Clone(session)
		for _, e := range ix.RequestFix(problems, ix.ActiveLeaf(), time.Unix(0, 0), rand.NewChaCha8([32]byte{byte(seed)})) {
			fixed = append(e.AppendJSON(fixed), '\n')
		}
		fx := indexBytes(t, fixed)
		view = viewJSON(t, fx, fx.ActiveLeaf(), jsonl.ViewProvider)
		if refused := testref.RefusedResults(t, view); len(refused) > 0 {
			t.Fatalf("seed %d: after the fix the view still refuses results for %v", seed, refused)
		}
		if again, err := fx.CheckRequest(fx.ActiveLeaf()); err != nil || len(again) > 0 {
			t.Fatalf("seed %d: after the fix: %v %v", seed, again, err)
		}
	}
	if broken < requestPropertySeeds/4 {
		t.Errorf("only %d of %d sessions were broken: the damage is too mild to test anything", broken, requestPropertySeeds)
	}
}

// brokenSession is a generated session with a few random damaging entries
// appended in a chain at its active leaf.
func brokenSession(t *testing.T, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts := gen.Options{Seed: seed, Entries: 40 + int(seed%5)*30, ToolHeavy: seed%2 == 0, ToolResultBytes: 60}
	if seed%3 == 0 {
		opts.CompactionEvery = 50
	}
	if _, err := gen.Write(&buf, opts); err != nil {
		t.Fatal(err)
	}
	ix := indexBytes(t, buf.Bytes())
	path, err := ix.Path(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 12))
	parent := ix.ID(ix.ActiveLeaf())
	for k := range 1 + rng.IntN(4) {
		id := fmt.Sprintf("dmg%05d", k)
		e := damage(t, ix, path, rng)
		e = append([]any{"id", id, "parentId", parent, "timestamp", "2026-06-01T00:00:00.000Z"}, e...)
		buf.Write(appendOrdered(nil, e))
		buf.WriteByte('\n')
		parent = id
	}
	return buf.Bytes()
}

// damage is one random damaging entry's fields after its head, as key, value
// pairs.
func damage(t *testing.T, ix *jsonl.Index, path []int, rng *rand.Rand) []any {
	t.Helper()
	pick := func(role string) string {
		var ids []string
		for _, i := range path {
			if role == "" || ix.Role(i) == role {
				ids = append(ids, ix.ID(i))
			}
		}
		if len(ids) == 0 {
			return ix.ID(path[rng.IntN(len(path))])
		}
		return ids[rng.IntN(len(ids))]
	}
	switch rng.IntN(6) {
	case 0:
		return []any{"type", "compaction", "summary", "Earlier work.", "firstKeptEntryId", pick(""), "tokensBefore", 1000, "fromHook", rng.IntN(2) == 0}
	case 1:
		return []any{"type", "compaction", "summary", "Earlier work.", "firstKeptEntryId", pick(jsonl.RoleToolResult), "tokensBefore", 1000}
	case 2:
		return []any{"type", "context_edit", "targetId", pick(jsonl.RoleAssistant), "replacement", nil}
	case 3:
		return []any{"type", "context_edit", "targetId", pick(jsonl.RoleAssistant),
			"replacement", map[string]any{"content": []any{map[string]any{"type": "text", "text": "[edited]"}}}}
	case 4:
		return []any{"type", "context_edit", "targetId", pick(""), "replacement", nil}
	}
	return repeatedResult(t, ix, pick(jsonl.RoleToolResult))
}

// repeatedResult is a message entry repeating the message of entry id (a
// tool result, when the path has one).
func repeatedResult(t *testing.T, ix *jsonl.Index, id string) []any {
	t.Helper()
	i, _ := ix.Lookup(id)
	e, err := ix.Decode(i)
	if err != nil {
		t.Fatal(err)
	}
	msg := json.RawMessage(e.Obj.Get("message"))
	if msg == nil {
		msg = json.RawMessage(`{"role":"user","content":"Go on.","timestamp":0}`)
	}
	return []any{"type", "message", "message", msg}
}

// appendOrdered writes key, value pairs as one JSON object, in order.
func appendOrdered(dst []byte, kv []any) []byte {
	dst = append(dst, '{')
	for k := 0; k < len(kv); k += 2 {
		if k > 0 {
			dst = append(dst, ',')
		}
		key, _ := json.Marshal(kv[k])
		val, _ := json.Marshal(kv[k+1])
		dst = append(append(append(dst, key...), ':'), val...)
	}
	return append(dst, '}')
}

func indexBytes(t *testing.T, b []byte) *jsonl.Index {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(jsonl.StdinName, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeFn() })
	return ix
}

func problemCalls(problems []jsonl.RequestProblem) []string {
	var out []string
	for _, p := range problems {
		out = append(out, p.ToolCallID)
	}
	return out
}

// TestCheckAfterCompactionProperty checks the forecast against the fact: for
// random firstKeptEntryIds on broken generated sessions, the problems
// CheckAfterCompaction predicts are those Check finds once a compaction with
// that firstKeptEntryId is appended (the compaction named as the cause).
func TestCheckAfterCompactionProperty(t *testing.T) {
	for seed := range uint64(requestPropertySeeds / 3) {
		session := brokenSession(t, seed)
		ix := indexBytes(t, session)
		path, err := ix.Path(ix.ActiveLeaf())
		if err != nil {
			t.Fatal(err)
		}
		c := jsonl.NewRequestChecker(ix)
		rng := rand.New(rand.NewPCG(seed, 13))
		for range 5 {
			firstKept := ix.ID(path[rng.IntN(len(path))])
			predicted, err := c.CheckAfterCompaction(ix.ActiveLeaf(), firstKept)
			if err != nil {
				t.Fatal(err)
			}
			line := appendOrdered(nil, []any{"type", "compaction", "id", "cmp00000", "parentId", ix.ID(ix.ActiveLeaf()),
				"timestamp", "2026-06-01T00:00:00.000Z", "summary", "s", "firstKeptEntryId", firstKept, "tokensBefore", 1})
			cx := indexBytes(t, append(append(slices.Clone(session), line...), '\n'))
			actual, err := cx.CheckRequest(cx.ActiveLeaf())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := describeProblems(predicted, ""), describeProblems(actual, "cmp00000"); !slices.Equal(got, want) {
				t.Fatalf("seed %d, firstKept %s: predicted %v, found %v", seed, firstKept, got, want)
			}
		}
	}
}

// describeProblems lists problems as text, an entry named compaction (the
// one appended) read as the compaction not yet written.
func describeProblems(problems []jsonl.RequestProblem, compaction string) []string {
	var out []string
	for _, p := range problems {
		if p.By.ID == compaction {
			p.By = jsonl.EntryRef{Entry: jsonl.None}
		}
		out = append(out, p.String())
	}
	return out
}

// TestCheckEveryLeafAsEachAlone: CheckEveryLeaf, which keeps what it read
// for the leaves to come (the skeletons of entries, edited or not), reports
// at every leaf what a fresh checker reports there. The sessions are
// brokenSession's with user messages branching off random entries, so that
// many leaves share damaged paths, and pairs of branches that edit one
// assistant message of their shared path differently.
func TestCheckEveryLeafAsEachAlone(t *testing.T) {
	for seed := range uint64(40) {
		session := brokenSession(t, seed)
		ix := indexBytes(t, session)
		rng := rand.New(rand.NewPCG(seed, 29))
		for k := range 6 {
			parent := rng.IntN(ix.Len())
			path, err := ix.Path(parent)
			if err != nil {
				t.Fatal(err)
			}
			target := ix.ID(path[rng.IntN(len(path))])
			for j, rep := range []string{`null`, `{"content":[{"type":"text","text":"[edited]"}]}`, ``} {
				head := ix.ID(parent)
				if rep != "" {
					session = fmt.Appendf(session, `{"type":"context_edit","id":"ed%03d%d","parentId":%q,"timestamp":"2026-06-02T00:00:00.000Z","targetId":%q,"replacement":%s}`+"\n", k, j, head, target, rep)
					head = fmt.Sprintf("ed%03d%d", k, j)
				}
				session = fmt.Appendf(session, `{"type":"message","id":"br%03d%d","parentId":%q,"timestamp":"2026-06-02T00:00:00.000Z","message":{"role":"user","content":"again"}}`+"\n", k, j, head)
			}
		}
		ix = indexBytes(t, session)
		every, err := jsonl.NewRequestChecker(ix).CheckEveryLeaf()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got := map[int][]jsonl.RequestProblem{}
		for _, lr := range every {
			got[lr.Leaf] = lr.Problems
		}
		for _, leaf := range ix.Leaves() {
			want, err := jsonl.NewRequestChecker(ix).Check(leaf)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if len(want)+len(got[leaf]) > 0 && !reflect.DeepEqual(got[leaf], want) {
				t.Fatalf("seed %d, leaf %s: CheckEveryLeaf reports %v, a fresh check %v", seed, ix.ID(leaf), got[leaf], want)
			}
		}
	}
}
