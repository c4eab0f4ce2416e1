package jsonl

// The accessors validation needs of an index it feeds (repair's model keeps
// per object only what the index does not hold).

// Building returns the index b is filling. The entries added so far can be
// read by number (LineNum, Offset, Type, MessageRole, ID); the tree is not
// linked before Index.
func (b *IndexBuilder) Building() *Index { return b.ix }

// MessageRole is a message entry's role as the index holds it: read from
// the line, or as an IndexBuilder's caller gave it (EntryFacts.Role).
func (ix *Index) MessageRole(i int) Role { return ix.nodes[i].role }

// ReserveFor makes room for the entries a file of size bytes holds if the
// rest is like its first read bytes, as BuildIndex does after its first
// chunk: growing the arrays by appending would copy each while the old one
// is live, and at millions of entries that copy is the peak.
func (b *IndexBuilder) ReserveFor(read, size int64) {
	b.ix.reserve(estimateEntries(len(b.ix.nodes), read, size))
}
