package sessionfiles

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sync/atomic"
)

// A walk opens, lists and stats folders ahead of its search on the other
// cores (readers), while the search itself takes the listings one by one,
// in the order a walk on one core takes them: what it lists, the folders it
// passes over as seen, the links it follows and the first error it meets
// are those of a serial walk. Over 10,000 files in 100 folders the listing
// and the stats were two thirds of the walk (issue 28).

// readAhead is how many of a folder's subfolders are read ahead of the
// search: each holds its handle open until the search takes it.
const readAhead = 8

// listing is a folder opened and read: its handle, its entries sorted by
// name, and the stat of each regular file whose name matches.
type listing struct {
	f       *folder
	key     fileKey
	keyed   bool  // key is known
	err     error // the folder could not be opened or identified
	listErr error // its entries could not be read
	entries []entry
	infos   []fs.FileInfo // per entry: its stat, or nil when not taken
	statAt  int           // the entry whose stat failed with statErr (-1: none)
	statErr error
}

// read identifies and lists open folder f, and stats the files the search will
// stat; a file gone since the listing is dropped from it.
func read(f *folder, m Match, buf *dirents) *listing {
	l := &listing{f: f, statAt: -1}
	if l.key, l.keyed, l.err = f.key(); l.err != nil {
		return l
	}
	if l.entries, l.listErr = f.list(buf); l.listErr != nil {
		return l
	}
	if !m.EveryPath {
		l.entries, l.infos, l.statAt, l.statErr = f.statEach(l.entries, m.Name)
	}
	return l
}

// close closes the listing's folder, if it was opened.
func (l *listing) close() {
	if l.f != nil {
		l.f.close()
	}
}

// stat is the stat of entry i, taken when the folder was read, or taken now
// (a file matched by its content).
func (l *listing) stat(i int) (fs.FileInfo, error) {
	switch {
	case l.infos != nil && l.infos[i] != nil:
		return l.infos[i], nil
	case i == l.statAt:
		return nil, l.statErr
	}
	return l.f.stat(l.entries[i].name)
}

// subfolder is a subfolder of a folder the search holds open, to be read
// by a reader or by the search, whichever comes first.
type subfolder struct {
	parent *folder
	d      entry
	depth  int
	taken  atomic.Bool   // a reader or the search has begun reading it
	done   chan struct{} // closed when l is set
	l      *listing
}

// readSub opens sub through its parent's handle, without following a
// symlink (errIsLink when it is one now), and reads it.
func readSub(s *subfolder, m Match, buf *dirents) *listing {
	if s.depth > MaxDepth {
		return &listing{err: fmt.Errorf("%s: folders nested more than %d deep (a symlink loop?)", s.d.path, MaxDepth)}
	}
	f, err := s.parent.openChild(s.d)
	if err != nil {
		return &listing{err: err}
	}
	return read(f, m, buf)
}

// readers read subfolders ahead of the search; nil reads none.
type readers struct {
	queue chan *subfolder
	match Match
}

// startReaders starts a reader on each core but the search's own; nil on
// one core.
func startReaders(m Match) *readers {
	return startReadersN(m, runtime.GOMAXPROCS(0)-1)
}

// startReadersN starts n readers; nil for none.
func startReadersN(m Match, n int) *readers {
	if n <= 0 {
		return nil
	}
	r := &readers{queue: make(chan *subfolder, 4*readAhead), match: m}
	for range n {
		go r.run()
	}
	return r
}

func (r *readers) run() {
	var buf dirents
	for s := range r.queue {
		if s.taken.CompareAndSwap(false, true) {
			s.l = readSub(s, r.match, &buf)
			close(s.done)
		}
	}
}

// stop ends the readers once the queue is drained.
func (r *readers) stop() {
	if r != nil {
		close(r.queue)
	}
}

// offer queues s for a reader; with none, or the queue full, the search
// reads it when it comes to it.
func (r *readers) offer(s *subfolder) {
	if r == nil {
		return
	}
	select {
	case r.queue <- s:
	default:
	}
}

// subfolders are the subfolders of one listing, offered to the readers a
// few ahead of the search.
type subfolders struct {
	list    []*subfolder
	offered int // list[:offered] went to the readers
	next    int // list[:next] were taken by the search
}

// subfoldersOf makes the subfolders of l at depth and offers the first.
func (w *walker) subfoldersOf(l *listing, depth int) *subfolders {
	s := &subfolders{}
	for _, d := range l.entries {
		if d.mode.IsDir() && d.mode&fs.ModeSymlink == 0 {
			s.list = append(s.list, &subfolder{parent: l.f, d: d, depth: depth, done: make(chan struct{})})
		}
	}
	w.offer(s)
	return s
}

// offer offers the readers the subfolders up to readAhead past next.
func (w *walker) offer(s *subfolders) {
	for ; s.offered < len(s.list) && s.offered < s.next+readAhead; s.offered++ {
		w.readers.offer(s.list[s.offered])
	}
}

// take returns the listing of the next subfolder, read by a reader or now.
func (w *walker) take(s *subfolders) *listing {
	sub := s.list[s.next]
	s.next++
	w.offer(s)
	if sub.taken.CompareAndSwap(false, true) {
		return readSub(sub, w.match, &w.buf)
	}
	w.help(s, sub)
	<-sub.done
	return sub.l
}

// help reads the subfolders offered after sub that no reader has begun,
// while a reader reads sub, rather than wait for it.
func (w *walker) help(s *subfolders, sub *subfolder) {
	for _, next := range s.list[s.next:s.offered] {
		select {
		case <-sub.done:
			return
		default:
		}
		if next.taken.CompareAndSwap(false, true) {
			next.l = readSub(next, w.match, &w.buf)
			close(next.done)
		}
	}
}

// drop closes the folders read ahead that the search did not take (it
// stopped at an error), waiting for a reader still at one, so that no
// reader opens through a parent handle closed after.
func (s *subfolders) drop() {
	for _, sub := range s.list[s.next:s.offered] {
		if !sub.taken.CompareAndSwap(false, true) {
			<-sub.done
			sub.l.close()
		}
	}
}

// enter searches the subfolder d at depth, l its listing: read through
// its parent's handle without following a symlink (readSub), so that a
// folder swapped for a link since the parent's listing is not searched as
// if it lay in the tree; it joins the links, followed after the direct
// tree as any other.
func (w *walker) enter(d entry, l *listing, outside bool, depth int) error {
	if errors.Is(l.err, errIsLink) {
		w.links = append(w.links, link{d.path, d.name, depth - 1})
		return nil
	}
	return w.search(l, outside, depth)
}
