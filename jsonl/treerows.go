package jsonl

import (
	"cmp"
	"iter"
	"math"
	"slices"

	"github.com/pitool/pitool/internal/bitset"
)

// TreeRow is one entry of the session tree in depth-first order, as Pi's
// getTree() lays it out (pi-ref tree prints the same rows).
type TreeRow struct {
	Entry    int     // entry number
	Depth    int     // 0 for a root
	Forks    int     // ancestors with more than one child: where a drawing indents
	Children []int32 // in display order, oldest first; the tree's own, not to be changed
	OnPath   bool    // on the active leaf's path (no entry is when that path loops)
}

// Tree is the session tree, its children packed (8 bytes per entry) and its
// rows made one at a time by Rows, so that a tree of millions of entries
// costs little beside the index.
type Tree struct {
	children childTable
	parents  []int32    // the index's: which entries are roots
	onPath   bitset.Set // the active leaf's path
}

// Tree returns the session tree. Roots are entries with no parent, a parent
// equal to themselves, or a parent that names no entry; siblings are ordered
// by timestamp, oldest first, as in Pi.
func (ix *Index) Tree() (*Tree, error) {
	children := ix.childTable()
	if err := ix.sortSiblings(children); err != nil {
		return nil, err
	}
	return &Tree{children: children, parents: ix.parents, onPath: ix.activePathBits()}, nil
}

// activePathBits marks the entries on the active leaf's path; none when the
// path loops (Path fails there), nor in a session of no entries.
func (ix *Index) activePathBits() bitset.Set {
	set := bitset.New(len(ix.nodes))
	if len(ix.nodes) == 0 {
		return set
	}
	leaf := int32(ix.ActiveLeaf())
	if _, loopAt := ix.chain(leaf); loopAt != None {
		return set
	}
	for cur := leaf; cur >= 0; cur = ix.parents[cur] {
		set.Add(int(cur))
	}
	return set
}

// treeFrame is the rest of a family still to be drawn: the children
// kids[next:end] of one entry, each at depth with forks.
type treeFrame struct{ next, end, depth, forks int32 }

// Rows yields the tree's rows depth-first, the roots in file order. What is
// kept is a frame per family on the way down that has children left: none
// on a chain, one beside a family of any size.
func (t *Tree) Rows() iter.Seq[TreeRow] {
	return func(yield func(TreeRow) bool) {
		var stack []treeFrame
		for i, p := range t.parents {
			if p == notNode || isChildOf(p, i) {
				continue
			}
			if stack = t.walk(int32(i), stack, yield); stack == nil {
				return
			}
		}
	}
}

// walk yields the rows of root's subtree. It returns the stack, empty and
// to be used again, or nil once yield has stopped.
func (t *Tree) walk(root int32, stack []treeFrame, yield func(TreeRow) bool) []treeFrame {
	stack = append(stack[:0], treeFrame{})
	cur, depth, forks := root, int32(0), int32(0)
	for {
		lo, hi := t.children.span(cur)
		kids := t.children.kids[lo:hi]
		if !yield(TreeRow{Entry: int(cur), Depth: int(depth), Forks: int(forks), Children: kids, OnPath: t.onPath.Has(int(cur))}) {
			return nil
		}
		if len(kids) > 1 {
			forks++
		}
		if depth++; len(kids) > 0 {
			if len(kids) > 1 {
				stack = append(stack, treeFrame{lo + 1, hi, depth, forks})
			}
			cur = kids[0]
			continue
		}
		top := &stack[len(stack)-1]
		if top.next == top.end {
			return stack[:0]
		}
		cur, depth, forks = t.children.kids[top.next], top.depth, top.forks
		if top.next++; top.next == top.end {
			stack = stack[:len(stack)-1]
		}
	}
}

// sortSiblings orders every entry's children by timestamp, stably, reading
// the timestamps of one family at a time. A family already in order, as Pi
// appends siblings, is read once and kept as it is.
func (ix *Index) sortSiblings(children childTable) error {
	var family []sibling
	for i := range len(children.start) - 1 {
		kids := children.of(int32(i))
		if len(kids) < 2 {
			continue
		}
		sorted, err := ix.inTimeOrder(kids)
		if err != nil {
			return err
		}
		if !sorted {
			if family, err = ix.sortFamily(kids, family[:0]); err != nil {
				return err
			}
		}
	}
	return nil
}

// sibling is a child and its timestamp, as sortFamily orders them.
type sibling struct {
	entry int32
	ms    float64
}

// sortFamily orders kids by timestamp, stably, in family, which it returns
// to be used again.
func (ix *Index) sortFamily(kids []int32, family []sibling) ([]sibling, error) {
	for _, c := range kids {
		ms, err := ix.timestampMillis(int(c))
		if err != nil {
			return family, err
		}
		family = append(family, sibling{c, ms})
	}
	slices.SortStableFunc(family, func(a, b sibling) int { return cmp.Compare(a.ms, b.ms) })
	for k, s := range family {
		kids[k] = s.entry
	}
	return family, nil
}

// inTimeOrder reports whether the entries' timestamps never decrease: what
// a stable sort of them would leave as it is.
func (ix *Index) inTimeOrder(entries []int32) (bool, error) {
	last := math.Inf(-1)
	for _, e := range entries {
		ms, err := ix.timestampMillis(int(e))
		if err != nil || ms < last {
			return false, err
		}
		last = ms
	}
	return true, nil
}

func (ix *Index) timestampMillis(i int) (float64, error) {
	raw, err := ix.rawLine(i)
	if err != nil {
		return 0, err
	}
	var ts struct {
		Timestamp string `json:"timestamp"`
	}
	Unmarshal(raw, &ts) // the line was validated by the index pass
	t, ok := ParseTimestamp(ts.Timestamp)
	if !ok {
		return 0, nil
	}
	return float64(t.UnixMilli()), nil
}

// LabelText returns the current label of entry i, "" when it has none.
func (ix *Index) LabelText(i int) (string, error) {
	l, ok := ix.Label(i)
	if !ok {
		return "", nil
	}
	e, err := ix.Decode(l)
	if err != nil {
		return "", err
	}
	return e.Obj.String("label"), nil
}
