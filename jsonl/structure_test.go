package jsonl

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
)

// TestProblems: each kind of damage to the tree lands in its list, in entry
// order, and the tree reads it as Pi does.
func TestProblems(t *testing.T) {
	lines := []string{
		entry("a", ""), // 0
		`{"type":"message","parentId":"a","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"x"}}` + "\n", // 1: no id
		entry("b", "gone"), // 2: dangling
		`{"type":"custom","id":"e","parentId":""}` + "\n",   // 3: "" parent
		`{"type":"custom","id":"n","parentId":true}` + "\n", // 4: not a string (a number names an entry whose id is that number)
		entry("c", "d"), // 5: cycle c → d → c
		entry("d", "c"), // 6
		entry("s", "s"), // 7: its own parent
		entry("f", "g"), // 8: parent written later
		entry("g", "a"), // 9
		entry("a", ""),  // 10: a again, a conflict: the later wins
		`{"type":"label","id":"l","parentId":"g","targetId":"nowhere","label":"x"}` + "\n", // 11
		`{"type":"label","id":"k","parentId":"l","targetId":"g","label":"x"}` + "\n",       // 12
	}
	ix := indexString(t, header+strings.Join(lines, ""))
	p := ix.Problems()
	want := &Problems{
		NoID:        []int{1},
		Duplicates:  []Duplicate{{Entry: 10, Earlier: 0}},
		BadParents:  []int{2, 3, 4},
		Cycles:      &Cycles{members: []int32{5, 6, 7}, ends: []int32{2, 3}},
		ParentAfter: []int{1, 8, 9}, // 1's and 9's parent a is entry 10
		MissingRefs: []int{11},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("problems\n%+v, want\n%+v", p, want)
	}
	if ix.HasID(1) || ix.ParentValue(3) != ParentEmpty || ix.ParentValue(4) != ParentNotString || ix.ParentValue(2) != ParentNamed {
		t.Errorf("per-entry facts: HasID(1) %v, ParentValue 2,3,4 = %v %v %v", ix.HasID(1), ix.ParentValue(2), ix.ParentValue(3), ix.ParentValue(4))
	}
	if _, ok := ix.Lookup(""); ok {
		t.Error("the empty id names the entry without an id")
	}
	if r, ok := ix.Ref(12); !ok || r != 9 {
		t.Errorf("Ref(12) = %d %v, want 9", r, ok)
	}
	if j, ok := ix.LatestBefore(10, 5); !ok || j != 0 {
		t.Errorf("LatestBefore(10, 5) = %d %v, want entry 0, the a before entry 5", j, ok)
	}
	if _, ok := ix.LatestBefore(0, 0); ok {
		t.Error("LatestBefore(0, 0) found an entry before the first")
	}
}

// TestCyclesFromFirst: a cycle a walk enters in its middle is listed from
// its first entry in file order, and At gives each cycle's entries.
func TestCyclesFromFirst(t *testing.T) {
	// t leads into the cycle p → r → q → p at r; s is its own parent.
	ix := indexString(t, header+entry("t", "r")+entry("p", "r")+entry("q", "p")+entry("r", "q")+entry("s", "s"))
	c := ix.Cycles()
	var got [][]int
	for k := range c.Len() {
		got = append(got, c.At(k))
	}
	if want := [][]int{{1, 3, 2}, {4}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("cycles %v, want %v", got, want)
	}
}

// TestWalk: enter and leave nest, children come in file order, the
// entries of a cycle and below one are never reached, and the path to the
// last entry entered is not left.
func TestWalk(t *testing.T) {
	ix := indexString(t, header+entry("a", "")+entry("b", "a")+entry("c", "a")+entry("x", "y")+entry("y", "x")+entry("z", "x")+entry("d", "b")+entry("r", "gone"))
	var got []string
	ix.Walk(func(i int, leaf bool) {
		got = append(got, fmt.Sprintf("+%s%v", ix.ID(i), map[bool]string{true: ".", false: ""}[leaf]))
	}, func(i int) { got = append(got, "-"+ix.ID(i)) })
	want := "+a +b +d. -d -b +c. -c -a +r."
	if strings.Join(got, " ") != want {
		t.Fatalf("walk %q, want %q", strings.Join(got, " "), want)
	}
}

// TestWalkDeepChain walks a chain far deeper than any goroutine stack a
// recursive walk could use; it ends at the chain's last entry, without
// leaving the path to it.
func TestWalkDeepChain(t *testing.T) {
	const n = 1_000_000
	b := NewIndexBuilder("chain", IndexOptions{})
	for i := range n {
		f := EntryFacts{Line: i + 1, Type: TypeCustom, ID: fmt.Sprint(i), HasID: true, Parsed: -1}
		if i > 0 {
			f.Parent, f.ParentID = ParentNamed, fmt.Sprint(i-1)
		}
		b.Add(&f)
	}
	ix := b.Index()
	depth, deepest := 0, 0
	ix.Walk(func(int, bool) { depth++; deepest = max(deepest, depth) }, func(int) { depth-- })
	if deepest != n || depth != n {
		t.Fatalf("walk reached depth %d and ended at %d, want %d and %d", deepest, depth, n, n)
	}
}

// TestBuilderRepeatsAndNotNodes: an entry that Same says repeats an earlier
// one is no node and its id keeps naming the first copy; an entry that is
// no node takes a number and nothing else.
func TestBuilderRepeatsAndNotNodes(t *testing.T) {
	type e struct {
		id, parent string
		notNode    bool
	}
	es := []e{{id: "h", notNode: true}, {id: "a"}, {id: "b", parent: "a"}, {id: "a", parent: ""}, {id: "c", parent: "a"}, {id: "h", parent: "c"}}
	b := NewIndexBuilder("feed", IndexOptions{Same: func(earlier, later int) bool { return earlier == 1 && later == 3 }})
	for i, x := range es {
		f := EntryFacts{Line: i + 1, Type: TypeCustom, ID: x.id, HasID: true, Parsed: i, NotNode: x.notNode}
		if x.parent != "" {
			f.Parent, f.ParentID = ParentNamed, x.parent
		}
		b.Add(&f)
	}
	ix := b.Index()
	if ix.IsNode(0) || ix.IsNode(3) || !ix.IsNode(1) || ix.Parent(3) != None || ix.ID(0) != "" {
		t.Fatalf("IsNode 0..3: %v %v %v %v, Parent(3) %d", ix.IsNode(0), ix.IsNode(1), ix.IsNode(2), ix.IsNode(3), ix.Parent(3))
	}
	if a, _ := ix.Lookup("a"); a != 1 || ix.Parent(4) != 1 {
		t.Errorf("a names %d and c's parent is %d, want the first copy, 1", a, ix.Parent(4))
	}
	if _, ok := ix.Lookup("h"); !ok || ix.Parent(5) != 4 {
		t.Error("the entry h is not found, or its parent is wrong")
	}
	if d := ix.Duplicates(); !reflect.DeepEqual(d, []Duplicate{{Entry: 3, Earlier: 1, Repeat: true}}) {
		t.Errorf("duplicates %+v", d)
	}
	if p := ix.Problems(); len(p.BadParents)+p.Cycles.Len()+len(p.NoID)+len(p.ParentAfter) != 0 {
		t.Errorf("problems %+v", p)
	}
	if leaves := ix.Leaves(); !reflect.DeepEqual(leaves, []int{2, 5}) {
		t.Errorf("leaves %v, want [2 5]", leaves)
	}
}

// TestBuilderMatchesBuildIndex feeds each v3 corpus file's entries, as
// decoded, to an IndexBuilder: it must build the tree BuildIndex builds.
func TestBuilderMatchesBuildIndex(t *testing.T) {
	files, _ := filepath.Glob(testref.Corpus("v3/*.jsonl"))
	more, _ := filepath.Glob(testref.Corpus("corrupt/*.jsonl"))
	compared := 0
	for _, name := range append(files, more...) {
		ix, closeFn, err := IndexFile(name, nil)
		if err != nil || ix.Version < 2 {
			continue
		}
		b := NewIndexBuilder(name, IndexOptions{Version: ix.Version})
		for i := range ix.Len() {
			e, err := ix.Decode(i)
			if err != nil {
				t.Fatal(err)
			}
			b.Add(factsOfEntry(e))
		}
		fed := b.Index()
		compared++
		for i := range ix.Len() {
			pid, _ := ix.DanglingParent(i)
			fpid, _ := fed.DanglingParent(i)
			r, rok := ix.Ref(i)
			fr, frok := fed.Ref(i)
			if ix.ID(i) != fed.ID(i) || ix.Parent(i) != fed.Parent(i) || pid != fpid || ix.HasID(i) != fed.HasID(i) ||
				ix.ParentValue(i) != fed.ParentValue(i) || r != fr || rok != frok {
				t.Fatalf("%s: entry %d differs: index %q→%d %q, fed %q→%d %q", filepath.Base(name), i, ix.ID(i), ix.Parent(i), pid, fed.ID(i), fed.Parent(i), fpid)
			}
		}
		if !reflect.DeepEqual(ix.Problems(), fed.Problems()) {
			t.Errorf("%s: problems differ:\n%+v\n%+v", filepath.Base(name), ix.Problems(), fed.Problems())
		}
		closeFn()
	}
	if compared < 10 {
		t.Fatalf("compared %d files; the corpus has 4 v3 files and 13 damaged ones", compared)
	}
}

// factsOfEntry is what a caller that decodes entries itself would feed.
func factsOfEntry(e *Entry) *EntryFacts {
	f := &EntryFacts{Line: e.Line, Offset: e.Offset, Type: e.Type, Parsed: -1}
	f.ID, f.HasID = DecodeString(e.Obj.Get("id"))
	switch raw := e.Obj.Get("parentId"); {
	case raw == nil || string(raw) == "null":
	case raw[0] == '"':
		f.Parent = ParentNamed
		f.ParentID, _ = DecodeString(raw)
	default:
		f.Parent = ParentNotString
	}
	if k := e.Type.Ref(); k != NoRef {
		f.Ref, f.HasRef = DecodeString(e.Obj.Get(k.String()))
	}
	return f
}
