package jsonl

import (
	"slices"
	"sort"

	"github.com/pitool/pitool/internal/bitset"
)

// ParentValue says what an entry's parentId holds. Only a non-empty string
// names a parent; Pi reads every other value as a root.
type ParentValue uint8

// What a parentId can hold.
const (
	NoParentValue   ParentValue = iota // absent or null: a root
	ParentNamed                        // a non-empty string: Parent, or DanglingParent when it names no entry
	ParentEmpty                        // "": a root
	ParentNotString                    // a boolean, an object…: a root (a number names the entry whose id is that number)
)

// ParentValue returns what entry i's parentId holds; for a v1 entry, what
// its migrated parentId holds.
func (ix *Index) ParentValue(i int) ParentValue { return ParentValue(ix.nodes[i].facts & factsParent) }

// HasID reports whether entry i has an id: a string "id" in v2 and v3, the
// migrated one in v1. Lookup never returns an entry without one.
func (ix *Index) HasID(i int) bool { return ix.nodes[i].facts&factsNoID == 0 }

// IsNode reports whether entry i is a node of the tree. Every entry of
// BuildIndex is; an IndexBuilder's entries may not be (EntryFacts.NotNode,
// IndexOptions.Same). An entry that is no node has no parent and no
// children, and Lookup never returns it.
func (ix *Index) IsNode(i int) bool { return ix.parents[i] != notNode }

// Ref returns the entry that entry i's reference key (EntryType.Ref) names:
// as Lookup, the last entry with that id. It is false when the key is
// absent, not a string, names no entry, or i's type has none.
func (ix *Index) Ref(i int) (int, bool) {
	r, ok := ix.refs[int32(i)]
	return int(r), ok
}

// ParsedEntry returns the entry at position pos among the lines JSON.parse
// reads (the header's being 0), which is what a v1 compaction's
// firstKeptEntryIndex counts. It is false in v2 and v3 files, and for a
// position that holds no entry.
func (ix *Index) ParsedEntry(pos int) (int, bool) {
	if pos < 0 || pos >= len(ix.parsed) || ix.parsed[pos] < 0 {
		return None, false
	}
	return int(ix.parsed[pos]), true
}

// Duplicate is an entry whose id an earlier entry has.
type Duplicate struct {
	Entry   int // the later entry
	Earlier int // the entry the id named when Entry was read: the last one before it, repeats left out
	// Repeat says Entry is Earlier written again (IndexOptions.Same): it is
	// no node, and the id keeps naming Earlier. Otherwise the later entry
	// wins, as in Pi.
	Repeat bool
}

// Duplicates returns the entries whose id an earlier entry has, in entry
// order. Entries without an id are none of them.
func (ix *Index) Duplicates() []Duplicate {
	dupes := ix.ids.duplicates()
	out := make([]Duplicate, len(dupes))
	for k, d := range dupes {
		out[k] = Duplicate{Entry: int(d.entry), Earlier: int(d.earlier), Repeat: d.repeat}
	}
	return out
}

// DuplicateOf returns entry i's Duplicate, false when no earlier entry has
// its id.
func (ix *Index) DuplicateOf(i int) (Duplicate, bool) {
	dupes := ix.ids.duplicates()
	k := sort.Search(len(dupes), func(k int) bool { return dupes[k].entry >= int32(i) })
	if k == len(dupes) || dupes[k].entry != int32(i) {
		return Duplicate{}, false
	}
	d := dupes[k]
	return Duplicate{Entry: i, Earlier: int(d.earlier), Repeat: d.repeat}, true
}

// LatestBefore returns the last node before entry before that has entry
// j's id (repeats left out); false when there is none. Pi's lookups take
// the last entry of the file with an id; this is the one a rewrite that
// keeps every parent before its child takes.
func (ix *Index) LatestBefore(j, before int) (int, bool) {
	if !ix.HasID(j) {
		return None, false
	}
	h, ok := ix.Lookup(ix.ID(j))
	for ok && h >= before {
		var d Duplicate
		d, ok = ix.DuplicateOf(h)
		h = d.Earlier
	}
	return h, ok
}

// Problems is what is wrong with an index's tree. Every list is in entry
// order and holds nodes only.
type Problems struct {
	NoID       []int       // v2 and v3 entries without a string id
	Duplicates []Duplicate // entries whose id an earlier entry has (Index.Duplicates)
	// BadParents are the entries whose parentId names no entry: a string
	// no entry has (DanglingParent), "", or a value that is not a string
	// (ParentValue). Like Pi, the tree takes them as roots.
	BadParents  []int
	Cycles      *Cycles // parent cycles (Index.Cycles)
	ParentAfter []int   // entries whose parent is written after them, cycles left out
	MissingRefs []int   // entries whose reference key names no entry (Index.Ref)
}

// Problems lists what is wrong with the tree.
func (ix *Index) Problems() *Problems {
	p := &Problems{Duplicates: ix.Duplicates(), Cycles: ix.Cycles()}
	// A bit per entry, not a map: a file of self-parented entries has
	// as many cycles as entries.
	inCycle := bitset.New(len(ix.parents))
	for _, i := range p.Cycles.members {
		inCycle.Add(int(i))
	}
	for i := range ix.nodes {
		if !ix.IsNode(i) {
			continue
		}
		if !ix.HasID(i) {
			p.NoID = append(p.NoID, i)
		}
		_, dangling := ix.dangling[int32(i)]
		if v := ix.ParentValue(i); dangling || v == ParentEmpty || v == ParentNotString {
			p.BadParents = append(p.BadParents, i)
		}
		if parent := int(ix.parents[i]); parent > i && !inCycle.Has(i) {
			p.ParentAfter = append(p.ParentAfter, i)
		}
		if _, ok := ix.Ref(i); !ok && ix.nodes[i].typ.Ref() != NoRef {
			p.MissingRefs = append(p.MissingRefs, i)
		}
	}
	return p
}

// Cycles is a list of parent cycles, kept as one run of entry numbers: a
// file of self-parented entries has as many cycles as entries, and a slice
// for each took 60 bytes per entry (issue 16).
type Cycles struct {
	members []int32 // the entries of every cycle, one cycle after another
	ends    []int32 // where each cycle ends in members
}

// Len returns the number of cycles.
func (c *Cycles) Len() int { return len(c.ends) }

// At returns the entries of cycle k, from the first one in file order.
func (c *Cycles) At(k int) []int {
	start := int32(0)
	if k > 0 {
		start = c.ends[k-1]
	}
	out := make([]int, 0, c.ends[k]-start)
	for _, i := range c.members[start:c.ends[k]] {
		out = append(out, int(i))
	}
	return out
}

// add appends the cycle through start, from its first entry in file order.
func (c *Cycles) add(ix *Index, start int32) {
	from := len(c.members)
	c.members = append(c.members, start)
	for cur := ix.parents[start]; cur != start; cur = ix.parents[cur] {
		c.members = append(c.members, cur)
	}
	cycle := c.members[from:]
	first := 0
	for k, i := range cycle {
		if i < cycle[first] {
			first = k
		}
	}
	slices.Reverse(cycle[:first])
	slices.Reverse(cycle[first:])
	slices.Reverse(cycle)
	c.ends = append(c.ends, int32(len(c.members)))
}

// Cycles returns the parent cycles, each as its entries from the first one
// in file order, in the order a scan of the entries from the first reaches
// them. An entry whose parent is itself is a cycle of one: Pi never
// finishes building its context.
func (ix *Index) Cycles() *Cycles {
	// Two bits per entry, not an int32: a walk from an entry stops at the
	// first entry seen before; that entry is in a cycle found by this walk
	// when it is seen and not yet done, for every earlier walk's entries
	// are done when it ends.
	seen, done := bitset.New(len(ix.parents)), bitset.New(len(ix.parents))
	out := &Cycles{}
	for i := range ix.parents {
		cur := int32(i)
		for cur >= 0 && !seen.Has(int(cur)) {
			seen.Add(int(cur))
			cur = ix.parents[cur]
		}
		if cur >= 0 && !done.Has(int(cur)) {
			out.add(ix, cur)
		}
		for cur = int32(i); cur >= 0 && !done.Has(int(cur)); cur = ix.parents[cur] {
			done.Add(int(cur))
		}
	}
	return out
}

// loop returns the entries of the cycle through start, from start on.
func (ix *Index) loop(start int32) []int {
	members := []int{int(start)}
	for cur := ix.parents[start]; cur != start; cur = ix.parents[cur] {
		members = append(members, int(cur))
	}
	return members
}

// Walk visits every node reachable from a root, depth first, children in
// file order, without recursion: enter when it reaches an entry (leaf: it
// has no children), leave when it is done with its subtree and another
// entry is still to be entered. leave is there to undo the state of a path
// before the walk goes down another branch, so the walk ends at the last
// entry it enters without leaving the path to it: in a linear session that
// path is the whole file, and undoing it cost 5% of validate at 1.5 GB
// (issue 28). Roots are the nodes whose parent is None or names no entry;
// the entries of a cycle, an entry whose parent is itself included, and
// those below them are not visited.
func (ix *Index) Walk(enter func(i int, leaf bool), leave func(i int)) {
	kids, roots := ix.kids()
	last := lastEntered(kids, roots)
	// No stack: the way up is the parent, and the next child to visit is
	// the one after the child just left (children are in file order). A
	// chain of a million entries would otherwise stack a million frames.
	for _, r := range roots {
		cur, next := r, 0
		enter(int(r), len(kids.of(r)) == 0)
		if r == last {
			return
		}
		for {
			if cs := kids.of(cur); next < len(cs) {
				c := cs[next]
				enter(int(c), len(kids.of(c)) == 0)
				if c == last {
					return
				}
				cur, next = c, 0
				continue
			}
			leave(int(cur))
			if cur == r {
				break
			}
			p := ix.parents[cur]
			k, _ := slices.BinarySearch(kids.of(p), cur)
			cur, next = p, k+1
		}
	}
}

// kidList lists every node's children in file order, in one array: the
// children of node i are list[start[i]:start[i+1]].
type kidList struct {
	start []int32
	list  []int32
}

func (k *kidList) of(i int32) []int32 { return k.list[k.start[i]:k.start[i+1]] }

// kids returns the children of every node, an entry whose parent is itself
// included, and the roots Walk starts from.
// lastEntered is the entry a depth-first walk of roots enters last: the
// last child of the last child, on down from the last root; -1 for none.
func lastEntered(kids *kidList, roots []int32) int32 {
	if len(roots) == 0 {
		return -1
	}
	cur := roots[len(roots)-1]
	for cs := kids.of(cur); len(cs) > 0; cs = kids.of(cur) {
		cur = cs[len(cs)-1]
	}
	return cur
}

func (ix *Index) kids() (*kidList, []int32) {
	k := &kidList{start: make([]int32, len(ix.parents)+1)}
	var roots []int32
	for i, p := range ix.parents {
		switch {
		case p == notNode:
		case p < 0:
			roots = append(roots, int32(i))
		default:
			k.start[p+1]++
		}
	}
	// start[p+1] becomes where p's children begin and, as they are filled
	// in, where they end: where p+1's begin. No second array of cursors.
	var sum int32
	for i := 1; i < len(k.start); i++ {
		sum, k.start[i] = sum+k.start[i], sum
	}
	k.list = make([]int32, sum)
	for i, p := range ix.parents {
		if p >= 0 {
			k.list[k.start[p+1]] = int32(i)
			k.start[p+1]++
		}
	}
	return k, roots
}
