package jsonl

import (
	"io"
	"math"
	"slices"
	"unsafe"
)

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
	// kept is what the skeletons kept from the caller's reads cost so far
	// (see scannedSkeletonBytes).
	kept int
	room []uint64 // for the calls of the skeleton being read, which keepSkeleton copies
}

// scannedSkeletonBytes bounds the request skeletons a LoadIndexer keeps
// from its caller's reads, so that the request check need not read those
// messages back (Index.skeletonOf); past it, the check reads them as it
// does for an index of its own scan. A skeleton costs 16 bytes and 8 a
// call: a 100 MB session's cost about 1.6 MB, a 1.5 GB one's 24 MB.
const scannedSkeletonBytes = 32 << 20

// scannedSkeletonSize is what one kept skeleton costs, its calls aside.
const scannedSkeletonSize = int(unsafe.Sizeof(scannedSkeleton{}))

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
	if n := f.node; !f.header && n.typ == TypeMessage && n.plain && (n.role == AssistantRole || n.role == ToolResultRole) {
		sk := skeletonOfFields(n.role, &r.s.Msg, b.room)
		b.room = sk.calls
		b.keepSkeleton(int32(len(b.ix.nodes)-1), sk)
	}
}

// keepSkeleton keeps entry i's request skeleton, read from the caller's
// read of its line, while the skeletons cost less than
// scannedSkeletonBytes. They are kept by entry number, NoRole where there
// is none: a map's hashing cost more than reading the messages back.
func (b *LoadIndexer) keepSkeleton(i int32, sk skeleton) {
	ix := b.ix
	cost := 8*len(sk.calls) + int(i+1-int32(len(ix.scanned)))*scannedSkeletonSize
	if b.kept+cost > scannedSkeletonBytes || len(sk.calls) > math.MaxUint16 {
		return
	}
	b.kept += cost
	if n := int(i) + 1; n > cap(ix.scanned) {
		// Room for as many as the index made room for, within the bound:
		// appending one at a time copied the slice at every doubling.
		ix.scanned = slices.Grow(ix.scanned, max(n, min(cap(ix.nodes), scannedSkeletonBytes/scannedSkeletonSize))-len(ix.scanned))
	}
	for int32(len(ix.scanned)) < i {
		ix.scanned = append(ix.scanned, scannedSkeleton{})
	}
	ix.scanned = append(ix.scanned, scannedSkeleton{role: sk.role, failed: sk.failed,
		n: uint16(len(sk.calls)), first: uint32(len(ix.scannedCalls)), callID: sk.callID})
	ix.scannedCalls = append(ix.scannedCalls, sk.calls...)
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
