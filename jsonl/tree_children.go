package jsonl

// childTable is every entry's children, packed in one array with an offset
// per entry (compressed sparse rows): 8 bytes per entry, where Children's
// slice per entry costs 24 and the slices' arrays more.
type childTable struct {
	start []int32 // entry i's children are kids[start[i]:start[i+1]]
	kids  []int32
}

// of returns entry i's children, a view into the table.
func (t childTable) of(i int32) []int32 { return t.kids[t.start[i]:t.start[i+1]] }

// span returns where entry i's children are in the table: kids[lo:hi].
func (t childTable) span(i int32) (lo, hi int32) { return t.start[i], t.start[i+1] }

// childTable returns, as Children does, every entry's children in file
// order, packed in one table; the roots are not listed.
func (ix *Index) childTable() (t childTable) {
	t.start = make([]int32, len(ix.nodes)+1)
	for i, p := range ix.parents {
		if isChildOf(p, i) {
			t.start[p+1]++
		}
	}
	for i := 1; i < len(t.start); i++ {
		t.start[i] += t.start[i-1]
	}
	t.kids = make([]int32, t.start[len(ix.nodes)])
	// start[p] is the next free slot of p's children: it ends at p's end,
	// p+1's start, and the shift below restores every start.
	for i, p := range ix.parents {
		if isChildOf(p, i) {
			t.kids[t.start[p]] = int32(i)
			t.start[p]++
		}
	}
	copy(t.start[1:], t.start[:len(ix.nodes)])
	t.start[0] = 0
	return t
}

// isChildOf reports whether parent p makes entry i a child, not a root (nor
// no node): p names an entry other than i.
func isChildOf(p int32, i int) bool { return p >= 0 && int(p) != i }
