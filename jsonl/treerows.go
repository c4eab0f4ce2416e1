package jsonl

import (
	"cmp"
	"iter"
	"slices"
)

// TreeRow is one entry of the session tree in depth-first order, as Pi's
// getTree() lays it out (pi-ref tree prints the same rows).
type TreeRow struct {
	Entry    int     // entry number
	Depth    int     // 0 for a root
	Forks    int     // ancestors with more than one child: where a drawing indents
	Children []int32 // in display order, oldest first; the tree's own, not to be changed
}

// Tree is the session tree, its children packed (8 bytes per entry) and its
// rows made one at a time by Rows, so that a tree of millions of entries
// costs little beside the index.
type Tree struct {
	children childTable
	roots    []int32
}

// Tree returns the session tree. Roots are entries with no parent, a parent
// equal to themselves, or a parent that names no entry; siblings are ordered
// by timestamp, oldest first, as in Pi.
func (ix *Index) Tree() (*Tree, error) {
	children, roots := ix.childTable()
	if err := ix.sortSiblings(children); err != nil {
		return nil, err
	}
	return &Tree{children: children, roots: roots}, nil
}

// Rows yields the tree's rows depth-first. Only the rows still to come are
// kept: the siblings of the rows above, not a row per entry.
func (t *Tree) Rows() iter.Seq[TreeRow] {
	return func(yield func(TreeRow) bool) {
		type item struct{ entry, depth, forks int32 }
		stack := make([]item, 0, len(t.roots))
		for k := len(t.roots) - 1; k >= 0; k-- {
			stack = append(stack, item{t.roots[k], 0, 0})
		}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			kids := t.children.of(it.entry)
			if !yield(TreeRow{Entry: int(it.entry), Depth: int(it.depth), Forks: int(it.forks), Children: kids}) {
				return
			}
			forks := it.forks
			if len(kids) > 1 {
				forks++
			}
			for k := len(kids) - 1; k >= 0; k-- {
				stack = append(stack, item{kids[k], it.depth + 1, forks})
			}
		}
	}
}

// sortSiblings orders every entry's children by timestamp, stably, reading
// the timestamps of one family at a time.
func (ix *Index) sortSiblings(children childTable) error {
	type sibling struct {
		entry int32
		ms    float64
	}
	var family []sibling
	for i := range len(children.start) - 1 {
		kids := children.of(int32(i))
		if len(kids) < 2 {
			continue
		}
		family = family[:0]
		for _, c := range kids {
			ms, err := ix.timestampMillis(int(c))
			if err != nil {
				return err
			}
			family = append(family, sibling{c, ms})
		}
		slices.SortStableFunc(family, func(a, b sibling) int { return cmp.Compare(a.ms, b.ms) })
		for k, s := range family {
			kids[k] = s.entry
		}
	}
	return nil
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
