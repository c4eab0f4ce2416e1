package jsonl

import (
	"fmt"
	"iter"

	"github.com/pitool/pitool/internal/bitset"
)

// Len returns the number of entries (header lines and skipped lines excluded).
func (ix *Index) Len() int { return len(ix.nodes) }

// ID returns entry i's id.
func (ix *Index) ID(i int) string { return ix.ids.id(int32(i)) }

// Type returns entry i's type.
func (ix *Index) Type(i int) EntryType { return ix.nodes[i].typ }

// LineNum returns the 1-based line of entry i.
func (ix *Index) LineNum(i int) int { return int(ix.nodes[i].line) }

// Offset returns the byte offset of entry i's line in the decompressed stream.
func (ix *Index) Offset(i int) int64 { return ix.nodes[i].offset }

// LineLen returns the length in bytes of entry i's line, its newline excluded.
func (ix *Index) LineLen(i int) int { return int(ix.nodes[i].length) }

// Parent returns the entry number of i's parent: None for a root, and None too
// for a parent id that names no entry (see DanglingParent) and for an entry
// that is no node (IsNode).
func (ix *Index) Parent(i int) int { return max(int(ix.parents[i]), None) }

// DanglingParent returns the parentId of entry i when it names no entry.
func (ix *Index) DanglingParent(i int) (string, bool) {
	id, ok := ix.dangling[int32(i)]
	return id, ok
}

// Role returns the message role of a message entry, "" for other entries and
// for roles pitool does not know.
func (ix *Index) Role(i int) string { return ix.nodes[i].role.String() }

// Lookup returns the entry number for an id; with duplicate ids the later entry
// wins, as in Pi. An entry without an id is never found (not even by ""), nor
// one that is no node (IsNode).
func (ix *Index) Lookup(id string) (int, bool) {
	i, ok := ix.ids.lookup([]byte(id))
	return int(i), ok
}

// ActiveLeaf returns the entry Pi resumes at: the last entry of the file, or
// None when there are no entries.
func (ix *Index) ActiveLeaf() int { return len(ix.nodes) - 1 }

// ResolveLeaf maps a user-given leaf id to an entry; "" means the active leaf.
func (ix *Index) ResolveLeaf(id string) (int, error) {
	if id == "" {
		if ix.Len() == 0 {
			return None, nil
		}
		return ix.ActiveLeaf(), nil
	}
	i, ok := ix.Lookup(id)
	if !ok {
		return None, &PosError{File: ix.Name, Err: fmt.Errorf("no entry with id %q", id)}
	}
	return i, nil
}

// Label returns the current label of entry i, if any.
func (ix *Index) Label(i int) (labelEntry int, ok bool) {
	if len(ix.labels) == 0 {
		return 0, false
	}
	var buf [packedIDLen]byte
	l, ok := ix.labels[string(ix.ids.view(int32(i), &buf))]
	return int(l), ok
}

// Children returns, for every entry, its children in file order. Entries whose
// parent is missing or themselves are roots, listed under None's slot: the
// second return value.
func (ix *Index) Children() (children [][]int32, roots []int32) {
	children = make([][]int32, len(ix.nodes))
	for i, p := range ix.parents {
		switch {
		case p == notNode:
		case p < 0 || int(p) == i:
			roots = append(roots, int32(i))
		default:
			children[p] = append(children[p], int32(i))
		}
	}
	return children, roots
}

// Leaves returns the entries that have no children, in file order.
func (ix *Index) Leaves() []int {
	hasChild := ix.hasChildBits()
	// Counted first and made to size: a file of siblings has as many
	// leaves as entries, and appending would reserve up to twice that.
	n := ix.countLeaves(hasChild)
	if n == 0 {
		return nil
	}
	leaves := make([]int, 0, n)
	for i := range ix.parents {
		if ix.isLeaf(hasChild, i) {
			leaves = append(leaves, i)
		}
	}
	return leaves
}

// LeafCount is len(ix.Leaves()) without the list: on a session of siblings
// every entry is a leaf, and the list cost 8 bytes each.
func (ix *Index) LeafCount() int { return ix.countLeaves(ix.hasChildBits()) }

// eachLeaf yields the entries Leaves lists, in file order, from one bit per
// entry instead of the list.
func (ix *Index) eachLeaf() iter.Seq[int] {
	return func(yield func(int) bool) {
		hasChild := ix.hasChildBits()
		for i := range ix.parents {
			if ix.isLeaf(hasChild, i) && !yield(i) {
				return
			}
		}
	}
}

// hasChildBits returns one bit per entry, set when another entry names it
// as its parent (a self-parent is not its own child).
func (ix *Index) hasChildBits() bitset.Set {
	hasChild := bitset.New(len(ix.parents))
	for i, p := range ix.parents {
		if isChildOf(p, i) {
			hasChild.Add(int(p))
		}
	}
	return hasChild
}

// isLeaf reports whether entry i is a node without children.
func (ix *Index) isLeaf(hasChild bitset.Set, i int) bool {
	return ix.IsNode(i) && !hasChild.Has(i)
}

// countLeaves counts the nodes without children.
func (ix *Index) countLeaves(hasChild bitset.Set) int {
	n := 0
	for i := range ix.parents {
		if ix.isLeaf(hasChild, i) {
			n++
		}
	}
	return n
}

// CycleError reports a parent chain that loops. Pi never stops on one.
type CycleError struct {
	File    string
	Entries []CycleEntry // the entries of the loop, from the first one met
}

// CycleEntry is one member of a cycle.
type CycleEntry struct {
	ID   string
	Line int
}

// Error names the first entries of the cycle with their lines.
func (e *CycleError) Error() string {
	s := fmt.Sprintf("%s: parent cycle through %d entries:", e.File, len(e.Entries))
	for i, c := range e.Entries {
		if i == 4 {
			s += " …"
			break
		}
		s += fmt.Sprintf(" %s (line %d)", c.ID, c.Line)
	}
	return s
}

// Unwrap lets errors.Is match ErrCycle.
func (e *CycleError) Unwrap() error { return ErrCycle }

// Path returns the entries from a root to leaf, in order. A parent that names
// no entry ends the walk there, as in Pi; a cycle is a *CycleError.
func (ix *Index) Path(leaf int) ([]int, error) { return pathTo[int](ix, leaf) }

// pathTo is Path with entry numbers of type T.
func pathTo[T entryNum](ix *Index, leaf int) ([]T, error) {
	if leaf == None {
		return nil, nil
	}
	n, loopAt := ix.chain(int32(leaf))
	if loopAt != None {
		return nil, ix.cycleError(loopAt)
	}
	parents := ix.parents
	path := make([]T, n)
	for cur, k := int32(leaf), n-1; cur >= 0; cur, k = parents[cur], k-1 {
		path[k] = T(cur)
	}
	return path, nil
}

// chain walks from leaf towards its root and returns the path's length, or,
// when the walk loops, the first entry it meets twice. It uses Brent's cycle
// detection: steps linear in the path and the loop, and no memory, so that
// thousands of leaves that loop cost a walk each, not a walk of the file each.
func (ix *Index) chain(leaf int32) (n int, loopAt int32) {
	parents := ix.parents
	tortoise, hare := leaf, leaf
	power, lam := 1, 0
	for n = 1; ; n++ {
		next := parents[hare]
		if next < 0 {
			return n, None
		}
		hare, lam = next, lam+1
		if hare == tortoise {
			return 0, ix.loopEntry(leaf, lam)
		}
		if lam == power {
			tortoise, power, lam = hare, power*2, 0
		}
	}
}

// loopEntry is the first entry met twice on the walk from leaf, which loops
// through a cycle of length entries.
func (ix *Index) loopEntry(leaf int32, length int) int32 {
	tortoise, hare := leaf, leaf
	for range length {
		hare = ix.parents[hare]
	}
	for tortoise != hare {
		tortoise, hare = ix.parents[tortoise], ix.parents[hare]
	}
	return tortoise
}

// cycleError reports the cycle entered at entry cur.
func (ix *Index) cycleError(cur int32) *CycleError {
	e := &CycleError{File: ix.Name}
	for _, i := range ix.loop(cur) {
		e.Entries = append(e.Entries, CycleEntry{ID: ix.ID(i), Line: ix.LineNum(i)})
	}
	return e
}

// IDless reports whether entry i of a v2 or v3 session has no string id:
// "id" absent, or a number or other value (Pi keys its Map by the value).
func (ix *Index) IDless(i int) bool { return ix.nodes[i].facts&factsNoID != 0 }
