package jsonl

import "io"

// LoadIndexer builds, from the lines of a caller's own scan, the index
// IndexReaderAtSized makes of the same input: the file as Pi loads it, whose
// entries are decoded from ra. validate reads every line once for its model
// and feeds them here, where the request check's index was a second scan of
// the whole file (issue 28). A line the caller's Reader has just read whole
// is not skimmed again.
type LoadIndexer struct {
	ix       *Index
	skimmer  lineSkimmer
	size     int64
	reserved bool
}

// NewLoadIndexer starts the index of the session named name, whose text ra
// holds, for input of about size bytes (0: unknown).
func NewLoadIndexer(name string, ra io.ReaderAt, size int64) *LoadIndexer {
	return indexerOf(newIndex(name, ra), size)
}

// indexerOf adds lines to ix, an index of about size bytes (0: unknown).
func indexerOf(ix *Index, size int64) *LoadIndexer {
	return &LoadIndexer{ix: ix, size: size, reserved: size <= 0}
}

// Line adds the next line of the input, skimming it as IndexReaderAtSized
// does.
func (b *LoadIndexer) Line(l Line) {
	f := b.skimmed(l)
	b.take(&f)
}

// skimmed is the facts of line l, skimmed.
func (b *LoadIndexer) skimmed(l Line) lineFacts {
	var s skim
	return factsOf(l, &s, b.skimmer.skimLine(l, &s).OK())
}

// LineRead adds the next line l, whose bytes r has just read (Reader.Read
// of l.Bytes at at, after white space only) as one object followed by white
// space only: the skim r holds is the line's, with its offsets counted from
// at, so the line is not skimmed again.
func (b *LoadIndexer) LineRead(l Line, r *Reader, at int) {
	f := readFacts(l, r, at)
	b.take(&f)
}

// readFacts is the facts of line l from r's read of it (see LineRead).
func readFacts(l Line, r *Reader, at int) lineFacts {
	s := r.s
	s.MessageOffset += at
	return factsOf(l, &s, true)
}

// take adds one line's facts, making room for the whole input after its
// first ReaderAtReserveAfter bytes as IndexReaderAtSized does.
func (b *LoadIndexer) take(f *lineFacts) {
	if l := f.line; !b.reserved && l.Offset >= ReaderAtReserveAfter {
		b.ix.reserve(estimateEntries(len(b.ix.nodes), l.Offset, b.size))
		b.reserved = true
	}
	b.ix.take(f)
}

// Index links the lines added and returns the index; the indexer must not
// be used afterwards.
func (b *LoadIndexer) Index() *Index {
	b.ix.link()
	return b.ix
}
