package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func indexString(t *testing.T, s string) *Index {
	t.Helper()
	src, err := Open("-", strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	ix, err := BuildIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

const header = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}` + "\n"

func entry(id, parent string) string {
	p := `null`
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"` + id + `"}}` + "\n"
}

func TestPathAndLeaves(t *testing.T) {
	ix := indexString(t, header+entry("a", "")+entry("b", "a")+entry("c", "a")+"garbage\n"+entry("d", "b"))
	if ix.Len() != 4 || len(ix.Skipped) != 1 || ix.Skipped[0].Num != 5 {
		t.Fatalf("len %d skipped %+v", ix.Len(), ix.Skipped)
	}
	path, err := ix.Path(ix.ActiveLeaf())
	if err != nil || len(path) != 3 || ix.ID(path[0]) != "a" || ix.ID(path[2]) != "d" {
		t.Fatalf("path %v err %v", path, err)
	}
	leaves := ix.Leaves()
	if len(leaves) != 2 || ix.ID(leaves[0]) != "c" || ix.ID(leaves[1]) != "d" {
		t.Errorf("leaves %v", leaves)
	}
}

func TestPathStopsOnCycle(t *testing.T) {
	ix := indexString(t, header+entry("a", "b")+entry("b", "a")+entry("c", "b"))
	_, err := ix.Path(ix.ActiveLeaf())
	var ce *CycleError
	if !errors.As(err, &ce) || !errors.Is(err, ErrCycle) || len(ce.Entries) != 2 {
		t.Fatalf("want a 2-entry cycle error, got %v", err)
	}
	if !strings.Contains(err.Error(), "line 2") {
		t.Errorf("cycle error names no line: %v", err)
	}
}

func TestDanglingParentEndsPath(t *testing.T) {
	ix := indexString(t, header+entry("a", "")+entry("b", "gone"))
	path, err := ix.Path(1)
	if err != nil || len(path) != 1 {
		t.Fatalf("path %v err %v", path, err)
	}
	if p, ok := ix.DanglingParent(1); !ok || p != "gone" {
		t.Errorf("dangling parent = %q %v", p, ok)
	}
}

func TestDuplicateIDLaterWins(t *testing.T) {
	ix := indexString(t, header+entry("a", "")+entry("x", "a")+entry("x", "a")+entry("c", "x"))
	path, _ := ix.Path(ix.ActiveLeaf())
	if len(path) != 3 || path[1] != 2 {
		t.Fatalf("path %v should go through the later x (entry 2)", path)
	}
}

func TestV1MigrationIsDeterministic(t *testing.T) {
	v1 := `{"type":"session","id":"v1","timestamp":"2025-01-01T00:00:00Z","cwd":"/p"}` + "\n" +
		`{"type":"message","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}` + "\n" +
		`{"type":"compaction","timestamp":"2025-01-01T00:00:02Z","summary":"s","firstKeptEntryIndex":1,"tokensBefore":5}` + "\n"
	a, b := indexString(t, v1), indexString(t, v1)
	if a.ID(0) != b.ID(0) || a.ID(1) != b.ID(1) || len(a.ID(0)) != 8 || a.Parent(1) != 0 {
		t.Fatalf("ids %q %q vs %q %q", a.ID(0), a.ID(1), b.ID(0), b.ID(1))
	}
	comp, err := a.Decode(1)
	if err != nil || comp.Obj.String("firstKeptEntryId") != a.ID(0) || comp.Obj.Has("firstKeptEntryIndex") {
		t.Fatalf("compaction not migrated: %s", comp.Obj.AppendJSON(nil))
	}
}

// TestLeafCountIsLeaves: Info's count of leaves, a bit per entry, is the
// length of Leaves' list on siblings, self-parents, a cycle, a missing
// parent, a repeated id and more than 64 entries (a second word of bits).
func TestLeafCountIsLeaves(t *testing.T) {
	many := header
	for i := range 70 {
		many += entry(fmt.Sprintf("e%d", i), fmt.Sprintf("e%d", i/3))
	}
	for name, s := range map[string]string{
		"empty":        header,
		"chain":        header + entry("a", "") + entry("b", "a") + entry("c", "b"),
		"siblings":     header + entry("a", "") + entry("b", "a") + entry("c", "a") + entry("d", "a"),
		"self-parents": header + entry("a", "a") + entry("b", "b"),
		"cycle":        header + entry("a", "b") + entry("b", "a") + entry("c", "a"),
		"missing":      header + entry("a", "zz") + entry("b", "a"),
		"repeated id":  header + entry("a", "") + entry("a", "a") + entry("b", "a"),
		"70 in a tree": many,
		"not an entry": header + `{"type":"message"}` + "\n" + entry("a", ""),
	} {
		src, err := Open("-", strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		ix, err := BuildIndex(src)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ix.LeafCount(), len(ix.Leaves()); got != want || (want == 0 && ix.Len() > 1) {
			t.Errorf("%s: leafCount %d, Leaves %d", name, got, want)
		}
		src.Close()
	}
}

// FuzzIndex: any input indexes without panic, and every path walk ends:
// in a root-to-leaf chain of parents that ends at the leaf and starts at a
// root, or, when the index has a cycle, in an error.
func FuzzIndex(f *testing.F) {
	f.Add(header + entry("a", "") + entry("b", "a"))
	f.Add(header + entry("a", "b") + entry("b", "a"))
	f.Add("\xEF\xBB\xBF" + header + "{\"type\":\"message\"}\r\n{")
	f.Add(header + entry("abcdef01", "") + entry("ABCDEF01", "abcdef01") + entry("abcdef01", "ABCDEF01") + entry("abcdef0", "abcdef01"))
	f.Add(header + entry("a", "") + `{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input":9,"output":3,"totalTokens":12}}}` + "\n" + entry("c", "b"))
	f.Fuzz(func(t *testing.T, s string) {
		src, err := Open("-", strings.NewReader(s))
		if err != nil {
			return
		}
		defer src.Close()
		ix, err := BuildIndex(src)
		if err != nil {
			return
		}
		for _, leaf := range ix.Leaves() {
			path, err := ix.Path(leaf)
			if err != nil {
				if ix.Cycles().Len() == 0 {
					t.Fatalf("leaf %d: %v, and the index has no cycle", leaf, err)
				}
				continue
			}
			checkChain(t, ix, leaf, path)
			ix.DecodePath(path)
		}
		checkIDs(t, ix)
		checkDecodeOuter(t, ix)
		if n := ix.LeafCount(); n != len(ix.Leaves()) {
			t.Fatalf("leafCount %d, Leaves %d", n, len(ix.Leaves()))
		}
		if ix.Len() > 0 {
			if sel, err := ix.Select(ix.ActiveLeaf()); err == nil {
				checkContextTokens(t, ix, sel)
			}
		}
	})
}

// checkDecodeOuter fails unless DecodeOuter, which takes a plain message as
// the index found it, gives every entry the keys and values that parsing
// its line in full gives (in a v3 file, which decoding does not migrate).
func checkDecodeOuter(t *testing.T, ix *Index) {
	t.Helper()
	if ix.Version < 3 {
		return
	}
	for i := range ix.Len() {
		raw, err := ix.rawLine(i)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		want, wantErr := ParseObject(raw)
		e, err := ix.DecodeOuter(i)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("entry %d: DecodeOuter of %q: %v, ParseObject: %v", i, raw, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !slices.Equal(e.Obj.Keys, want.Keys) || !slices.EqualFunc(e.Obj.Vals, want.Vals, func(a, b RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Fatalf("entry %d: DecodeOuter %q = %q, ParseObject %q", i, raw, e.Obj.Vals, want.Vals)
		}
	}
}

// checkContextTokens fails unless the running sum of the context's tokens
// (contextTokens, under Info and TokenCounter) is estimateContextTokens worked
// out over the whole list: the last assistant usage plus the estimates of the
// messages after it, or every estimate when no usage is trusted.
func checkContextTokens(t *testing.T, ix *Index, sel *Selection) {
	var sum contextTokens
	var msgs []Object
	ix.Stream(sel, func(pe ProjectedEntry) error {
		for _, m := range pe.Messages {
			sum.add(m)
		}
		msgs = append(msgs, pe.Messages...)
		return nil
	})
	want, from := 0, 0
	for i, m := range msgs {
		if n, ok := AssistantUsageTokens(m); ok {
			want, from = n, i+1
		}
	}
	for _, m := range msgs[from:] {
		want += EstimateTokens(m)
	}
	if got := sum.context().Tokens; got != want {
		t.Fatalf("context tokens %d, the rule over the list %d", got, want)
	}
}

// checkIDs fails unless every entry's id is the one its line holds, and
// looking it up finds an entry with that id.
func checkIDs(t *testing.T, ix *Index) {
	for i := range ix.Len() {
		id := ix.ID(i)
		if ix.Version >= 2 && ix.HasID(i) {
			if e, err := ix.Decode(i); err == nil && e.Obj.String("id") != id {
				t.Fatalf("entry %d: ID %q, its line's id %q", i, id, e.Obj.String("id"))
			}
		}
		if j, ok := ix.Lookup(id); ok && ix.ID(j) != id {
			t.Fatalf("entry %d: Lookup(%q) = entry %d, whose id is %q", i, id, j, ix.ID(j))
		}
	}
}

// checkChain fails unless path runs from a root to leaf, each entry the
// parent of the next.
func checkChain(t *testing.T, ix *Index, leaf int, path []int) {
	if len(path) == 0 || path[len(path)-1] != leaf || ix.Parent(path[0]) != None {
		t.Fatalf("leaf %d: path %v does not run from a root to the leaf", leaf, path)
	}
	for k := 1; k < len(path); k++ {
		if ix.Parent(path[k]) != path[k-1] {
			t.Fatalf("leaf %d: path %v: %d is not the parent of %d", leaf, path, path[k-1], path[k])
		}
	}
}

// TestPackedIDsResolve: ids that pack (8 lowercase hex digits) and their
// look-alikes that do not (uppercase, 7 characters) are distinct ids, each
// parent resolving to the latest entry with exactly its id, as in Pi: entry
// 1's parent is the second abcdef01 (entry 3), which closes a loop.
func TestPackedIDsResolve(t *testing.T) {
	ix := indexString(t, header+entry("abcdef01", "")+entry("ABCDEF01", "abcdef01")+entry("abcdef0", "ABCDEF01")+
		entry("abcdef01", "abcdef0")+entry("0000000a", "abcdef01")+entry("0000000A", "0000000a"))
	wantParents := []int{None, 3, 1, 2, 3, 4}
	for i, want := range wantParents {
		if got := ix.Parent(i); got != want {
			t.Errorf("parent of entry %d (%s) = %d, want %d", i, ix.ID(i), got, want)
		}
	}
	for id, want := range map[string]int{"abcdef01": 3, "ABCDEF01": 1, "abcdef0": 2, "0000000a": 4, "0000000A": 5} {
		if got, ok := ix.Lookup(id); !ok || got != want || ix.ID(got) != id {
			t.Errorf("Lookup(%q) = %d %v, want %d", id, got, ok, want)
		}
	}
	for _, absent := range []string{"Abcdef01", "abcdef02", "0000000b", "abcdef011"} {
		if got, ok := ix.Lookup(absent); ok {
			t.Errorf("Lookup(%q) = %d, want none", absent, got)
		}
	}
	if d := ix.Duplicates(); len(d) != 1 || d[0].Entry != 3 || d[0].Earlier != 0 {
		t.Errorf("duplicates %+v, want entry 3 repeating the id of entry 0", d)
	}
}
