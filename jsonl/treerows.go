package jsonl

import (
	"sort"
)

// TreeRow is one entry of the session tree in depth-first order, as Pi's
// getTree() lays it out (pi-ref tree prints the same rows).
type TreeRow struct {
	Entry    int   // entry number
	Depth    int   // 0 for a root
	Children []int // in display order: oldest first
}

// TreeRows returns the whole tree depth-first. Roots are entries with no
// parent, a parent equal to themselves, or a parent that names no entry;
// siblings are ordered by timestamp, oldest first, as in Pi.
func (ix *Index) TreeRows() ([]TreeRow, error) {
	children, roots := ix.Children()
	times, err := ix.siblingTimes(children)
	if err != nil {
		return nil, err
	}
	for _, c := range children {
		if len(c) > 1 {
			sort.SliceStable(c, func(a, b int) bool { return times[c[a]] < times[c[b]] })
		}
	}
	// At most one row per entry: allocated once, not grown by appending,
	// whose copies of a large tree were live beside the old array.
	rows := make([]TreeRow, 0, len(ix.nodes))
	type item struct{ entry, depth int32 }
	stack := make([]item, 0, len(roots))
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, item{roots[k], 0})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids := children[it.entry]
		row := TreeRow{Entry: int(it.entry), Depth: int(it.depth), Children: make([]int, len(kids))}
		for k, c := range kids {
			row.Children[k] = int(c)
		}
		rows = append(rows, row)
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, item{kids[k], it.depth + 1})
		}
	}
	return rows, nil
}

// siblingTimes reads the timestamp (epoch ms) of every entry that has
// siblings, the only ones whose order needs it.
func (ix *Index) siblingTimes(children [][]int32) (map[int32]float64, error) {
	times := map[int32]float64{}
	for _, c := range children {
		if len(c) < 2 {
			continue
		}
		for _, i := range c {
			ms, err := ix.timestampMillis(int(i))
			if err != nil {
				return nil, err
			}
			times[i] = ms
		}
	}
	return times, nil
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
