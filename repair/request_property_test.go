package repair_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
)

// TestRequestProperty breaks sessions from the bench generator the way
// jsonl's TestRequestCheckProperty does (random compactions, context edits
// dropping a message or replacing an assistant's content with text, repeated
// tool results, appended at the active leaf) and checks that validate flags
// the file exactly when its provider view (pitool's, equal to pi-ref's)
// holds a result a provider refuses, and that repair clears it: the
// repaired view refuses none, validate finds no request problem, and the
// output starts with the input.
func TestRequestProperty(t *testing.T) {
	broken := 0
	for seed := range uint64(80) {
		in := brokenSession(t, seed)
		refused := len(testref.RefusedResults(t, view(t, indexBytes(t, in), jsonl.ViewProvider))) > 0
		rep := validateBytes(t, in)
		if flagged := hasAnyCode(rep, append(requestCodes, "tools.orphan-result")); flagged != refused {
			t.Fatalf("seed %d: the view refuses a result: %v, validate flags: %v (%v)", seed, refused, flagged, rep.Codes())
		}
		if !refused {
			continue
		}
		broken++
		out, _, _ := repairBytes(t, in, repair.Options{})
		if !bytes.HasPrefix(out, in) {
			t.Fatalf("seed %d: the repaired file does not start with the input", seed)
		}
		if left := testref.RefusedResults(t, view(t, indexBytes(t, out), jsonl.ViewProvider)); len(left) > 0 {
			t.Fatalf("seed %d: the repaired view still refuses %v", seed, left)
		}
		if after := validateBytes(t, out); hasAnyCode(after, append(requestCodes, "tools.orphan-result")) {
			t.Fatalf("seed %d: validate still flags the repaired file: %v", seed, after.Codes())
		}
	}
	if broken < 20 {
		t.Errorf("only %d sessions were broken: the damage is too mild to test anything", broken)
	}
}

// brokenSession is a generated session with 1 to 4 random damaging entries
// chained from its active leaf.
func brokenSession(t *testing.T, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts := gen.Options{Seed: seed, Entries: 40 + int(seed%4)*30, ToolHeavy: seed%2 == 0, ToolResultBytes: 60}
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
		head := fmt.Sprintf(`{"id":%q,"parentId":%q,"timestamp":"2026-06-01T00:00:00.000Z",`, id, parent)
		buf.WriteString(head + requestDamage(t, ix, path, rng)[1:] + "\n")
		parent = id
	}
	return buf.Bytes()
}

// requestDamage is one random damaging entry, without its id, parent and time.
func requestDamage(t *testing.T, ix *jsonl.Index, path []int, rng *rand.Rand) string {
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
	switch rng.IntN(5) {
	case 0:
		return fmt.Sprintf(`{"type":"compaction","summary":"Earlier work.","firstKeptEntryId":%q,"tokensBefore":1000,"fromHook":%v}`, pick(""), rng.IntN(2) == 0)
	case 1:
		return fmt.Sprintf(`{"type":"compaction","summary":"Earlier work.","firstKeptEntryId":%q,"tokensBefore":1000}`, pick(jsonl.RoleToolResult))
	case 2:
		return fmt.Sprintf(`{"type":"context_edit","targetId":%q,"replacement":null}`, pick(jsonl.RoleAssistant))
	case 3:
		return fmt.Sprintf(`{"type":"context_edit","targetId":%q,"replacement":{"content":[{"type":"text","text":"[edited]"}]}}`, pick(jsonl.RoleAssistant))
	}
	i, _ := ix.Lookup(pick(jsonl.RoleToolResult))
	e, err := ix.Decode(i)
	if err != nil {
		t.Fatal(err)
	}
	return `{"type":"message","message":` + string(e.Obj.Get("message")) + `}`
}
