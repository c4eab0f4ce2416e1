package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
)

const (
	// parallelMinBytes is the smallest plain file indexed on several cores.
	parallelMinBytes = 32 << 20
	// maxIndexWorkers bounds the goroutines skimming chunks.
	maxIndexWorkers = 4
)

// chunkBytes is the share of a file one worker skims at a time (a variable so
// that tests can cut small files into many chunks).
var chunkBytes int64 = 4 << 20

// indexWorkers returns how many goroutines should skim a file of size bytes:
// one for small files, non-seekable input, or a single core.
func indexWorkers(seekable bool, size int64) int {
	if !seekable || size < parallelMinBytes {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), maxIndexWorkers)
}

// chunk is a run of whole lines skimmed by one worker.
type chunk struct {
	start, end int64
	*scratch       // the facts of its entry and header lines
	lines      int // physical lines in the chunk
	skipped    int // lines Pi's loader skips, of which the first few are in skips
	err        error
	done       chan struct{}
}

// scratch holds a chunk's facts and the bytes they keep. Once the merger has
// taken a chunk's facts its scratch goes back to the workers, so a file is
// indexed with a few chunks' worth of allocations, and the garbage collector
// has little to do.
type scratch struct {
	facts []lineFacts
	skips []Line
	arena blockArena
}

// reset empties s for the next chunk.
func (s *scratch) reset() {
	s.facts, s.skips = s.facts[:0], s.skips[:0]
	s.arena.reset()
}

// scanParallel skims a plain file in chunks on several goroutines and adds the
// facts to the index in file order, so the result is the same as scan's. At
// most 2*workers chunks are in flight, which bounds memory.
func (ix *Index) scanParallel(ra io.ReaderAt, size int64, workers int) error {
	jobs := make(chan *chunk)
	order := make(chan *chunk, workers)
	free := make(chan *scratch, 2*workers+1)
	stop := make(chan struct{})
	defer close(stop)
	go splitChunks(ra, size, jobs, order, stop)
	for w := 0; w < workers; w++ {
		go skimChunks(ra, ix.Name, jobs, free)
	}
	base := 0
	for c := range order {
		<-c.done
		if c.err != nil {
			return rebaseError(c.err, base, c.start)
		}
		ix.takeChunk(c, base)
		if base == 0 {
			ix.reserve(estimateEntries(len(ix.nodes), c.end, size))
		}
		base += c.lines
		c.scratch.reset()
		select {
		case free <- c.scratch:
		default:
		}
	}
	return nil
}

// reserveMargin is how much more than the first chunk's rate of entries
// per byte the index makes room for: a little, since a file whose later
// lines are shorter only grows its arrays once more, as it would anyway.
const reserveMargin = 1.05

// estimateEntries is how many entries a file of size bytes holds if the
// rest is like its first read bytes, which held entries.
func estimateEntries(entries int, read, size int64) int {
	if read <= 0 {
		return entries
	}
	return int(float64(entries) * float64(size) / float64(read) * reserveMargin)
}

// reserve makes room for n entries in all, so that the arrays of a large
// file are allocated once: growing by appending copies each array into one
// a quarter larger while the old one is still live, and at millions of
// entries that copy, not the index, is the peak (issue 16).
func (ix *Index) reserve(n int) {
	if n <= cap(ix.nodes) {
		return
	}
	ix.nodes = slices.Grow(ix.nodes, n-len(ix.nodes))
	ix.parents = slices.Grow(ix.parents, n-len(ix.parents))
	ix.ids.reserve(n)
}

// takeChunk adds a chunk's facts and skipped lines to the index; the chunk
// starts after line base.
func (ix *Index) takeChunk(c *chunk, base int) {
	for k := range c.facts {
		ix.take(c.facts[k].rebase(base, c.start))
	}
	for _, l := range c.skips {
		l.Num += base
		l.Offset += c.start
		ix.noteSkipped(l)
	}
	ix.SkippedCount += c.skipped - len(c.skips)
	if c.lines > 0 {
		ix.Lines, ix.Bytes = base+c.lines, c.end
	}
}

// splitChunks cuts [0, size) into chunks that end at line ends and hands each
// to the workers and, in order, to the merger.
func splitChunks(ra io.ReaderAt, size int64, jobs, order chan<- *chunk, stop <-chan struct{}) {
	defer close(jobs)
	defer close(order)
	buf := make([]byte, 64<<10)
	for start := int64(0); start < size; {
		c := &chunk{start: start, end: lineEndAfter(ra, buf, min(start+chunkBytes, size), size), done: make(chan struct{})}
		select {
		case order <- c:
		case <-stop:
			return
		}
		select {
		case jobs <- c:
		case <-stop:
			return
		}
		start = c.end
	}
}

// lineEndAfter returns the offset just past the first newline at or after at,
// or size when there is none, reading through buf.
func lineEndAfter(ra io.ReaderAt, buf []byte, at, size int64) int64 {
	for at < size {
		n, err := ra.ReadAt(buf, at)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return at + int64(i) + 1
		}
		if n == 0 || (err != nil && !errors.Is(err, io.EOF)) {
			return size
		}
		at += int64(n)
	}
	return size
}

// skimChunks skims the chunks it receives, keeping each line's facts with
// their bytes copied out of the scanner's buffer. The read buffer is reused
// from chunk to chunk.
func skimChunks(ra io.ReaderAt, name string, jobs <-chan *chunk, free <-chan *scratch) {
	br := bufio.NewReaderSize(nil, scanBufferBytes)
	var skimmer lineSkimmer
	for c := range jobs {
		select {
		case c.scratch = <-free:
		default:
			c.scratch = new(scratch)
		}
		br.Reset(io.NewSectionReader(ra, c.start, c.end-c.start))
		sc := &Scanner{name: name, r: br, max: MaxLineBytes, bomFree: c.start > 0}
		for sc.Scan() {
			l := sc.Line()
			var s skim
			c.lines = l.Num
			f := factsOf(l, &s, skimmer.skim(l.Bytes, &s).OK())
			if !f.valid {
				c.skip(f.line)
				continue
			}
			f.detach(&c.arena)
			c.facts = append(c.facts, f)
		}
		c.err = sc.Err()
		close(c.done)
	}
}

// skip counts a line Pi's loader skips, keeping the first few: a chunk of
// blank lines costs a counter, not a record per line.
func (c *chunk) skip(l Line) {
	if c.skipped++; len(c.skips) < MaxSampledLines {
		c.skips = append(c.skips, l)
	}
}

// blockArena hands out copies of small byte slices from 64 KB blocks; a full
// block is left as it is, so earlier copies stay valid until reset.
type blockArena struct {
	blocks [][]byte
	used   int // blocks[:used] hold copies; the last of them is being filled
}

func (a *blockArena) copy(b []byte) []byte {
	if b == nil {
		return nil
	}
	if len(b) > 4<<10 {
		return append([]byte(nil), b...)
	}
	if a.used == 0 || len(b) > cap(a.blocks[a.used-1])-len(a.blocks[a.used-1]) {
		if a.used == len(a.blocks) {
			a.blocks = append(a.blocks, make([]byte, 0, 64<<10))
		}
		a.blocks[a.used] = a.blocks[a.used][:0]
		a.used++
	}
	block := &a.blocks[a.used-1]
	start := len(*block)
	*block = append(*block, b...)
	return (*block)[start:len(*block):len(*block)]
}

// reset makes every block free again; earlier copies must no longer be used.
func (a *blockArena) reset() { a.used = 0 }

// detach copies the facts' byte fields out of the scanner's buffer. A header
// line is copied whole.
func (f *lineFacts) detach(a *blockArena) {
	f.id, f.parentID, f.ref, f.label, f.version = a.copy(f.id), a.copy(f.parentID), a.copy(f.ref), a.copy(f.label), a.copy(f.version)
	if f.line.Bytes != nil {
		f.line.Bytes = append([]byte(nil), f.line.Bytes...)
	}
}

// rebase moves a chunk-relative line to its place in the file.
func (f *lineFacts) rebase(lines int, offset int64) *lineFacts {
	f.line.Num += lines
	f.line.Offset += offset
	f.node.line += uint32(lines)
	f.node.offset += offset
	return f
}

func rebaseError(err error, lines int, offset int64) error {
	var pe *PosError
	if errors.As(err, &pe) {
		moved := *pe
		moved.Line += lines
		moved.Offset += offset
		return &moved
	}
	return err
}
