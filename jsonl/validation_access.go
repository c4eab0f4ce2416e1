package jsonl

import (
	"io"
	"math"
)

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

// ReaderAtReserveAfter is how much of its input IndexReaderAtSized reads
// before it makes room for the whole input.
const ReaderAtReserveAfter = 4 << 20

// IndexReaderAtSized is IndexReaderAt (the same lines, the same index) for
// input of about size bytes (0: unknown): after its first
// ReaderAtReserveAfter bytes it makes room for the entries of the whole
// input, as BuildIndex does after its first chunk, instead of growing its
// arrays by appending, whose copies and spare capacity are validate's peak
// at millions of entries (issue 16).
func IndexReaderAtSized(name string, ra io.ReaderAt, size int64) (*Index, error) {
	ix := newIndex(name, ra)
	if err := ix.scanSized(NewScanner(io.NewSectionReader(ra, 0, math.MaxInt64), name), size); err != nil {
		return nil, err
	}
	ix.link()
	return ix, nil
}
