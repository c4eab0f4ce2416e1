package search

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"sort"
	"sync"
	"time"

	"github.com/pitool/pitool/jsonl"
)

// Pi's /clone and /fork, and pitool clone and fork, copy a session's history
// into a new file: a new header, whose parentSession names the source file,
// and the entries copied with their ids and timestamps. A plain copy of the
// file holds the same entries under the same header id. A match in that
// history is then the same match in every copy, and a search over a folder
// of forks would print it once per copy.
//
// Copies are looked for only among files that share history by their
// headers (relatives, related.go): the same header id, or parentSession
// links between them or to a common parent. Files are grouped by those
// links, and a file alone in its group has no copies: its matches are all
// shown and counted, as without Options.Copies. A copy made outside Pi
// and pitool that gave the file a new header id and no parentSession is
// not known as a copy, and its matches are shown again.
//
// The same match is the same entry (its id and its timestamp) with the same
// text of it (its place among the entry's texts, its role and kind), at the
// same offset in that text, matching the same characters, in another file.
// Its first holder is the file whose session header is the earliest (an
// unreadable header last), then the first by path; the others are its
// copies. With Options.Copies, Run shows such a match once, at its first
// holder, naming the copies (Match.Copies), and not in the copies.
//
// To know the copies before printing the first holder's match, Run reads
// the files of groups of two or more twice: a first pass, group by group,
// keeps a 16-byte key of each of their matches (two 64-bit hashes) and the
// set of files holding it, the sets interned, and drops the keys only one
// file holds once its group is read. Memory grows with the distinct
// matches of the largest group (about 40 bytes each) and the matches files
// share, not with the matches of the folder, and not with their copies. The second pass is the
// search as without Options.Copies, in the order of the files. Stdin ("-")
// is read once: it takes no part (its matches are all shown, and never
// counted as copies), nor does a file that is not a regular one.

// matchKey is a match's identity: two independent 64-bit hashes.
type matchKey [2]uint64

// copies is what the first pass found: for each match held by more than
// one file, the set of its holders.
type copies struct {
	seeds   [2]maphash.Seed
	files   []string
	index   map[string]int // file → its place in files
	headers []time.Time    // file → its header's timestamp, zero when unread

	mu      sync.Mutex
	holders map[matchKey]uint32  // match → its set of holders (an index of sets)
	sets    [][]int32            // the interned sets, sorted; sets[0] is empty
	setIDs  map[string]uint32    // a set's bytes → its index
	trans   map[[2]uint32]uint32 // (set, file) → the set with file added

	// counted, for a search that only counts (Options.CountOnly, no
	// Limit): file → its match keys that another file holds, kept from
	// the first pass so that its count needs no second one; nil for a
	// file the first pass could not read. alone: file → how many of its
	// matches no other file holds.
	counted [][]matchKey
	alone   []int

	// pending is the keys of the group being read, dropped once it is read
	// (prune) unless another file holds them.
	pending []matchKey

	// after the first pass
	first  []int32    // set → its first holder
	others [][]string // set → the other holders' names, in file order
	shared []bool     // file → whether it holds a match another file holds
}

func newCopies(files []string) *copies {
	c := &copies{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, files: files,
		index: make(map[string]int, len(files)), headers: make([]time.Time, len(files)),
		holders: map[matchKey]uint32{}, sets: [][]int32{nil}, setIDs: map[string]uint32{"": 0}, trans: map[[2]uint32]uint32{}}
	for i, f := range files {
		if _, dup := c.index[f]; !dup && f != jsonl.StdinName {
			c.index[f] = i
		}
	}
	return c
}

// place is file's place among the files of the first pass: none for stdin
// or when c is nil.
func (c *copies) place(file string) (int, bool) {
	if c == nil {
		return 0, false
	}
	i, ok := c.index[file]
	return i, ok
}

// key is the identity of the match of text ordinal n of the entry with
// this id and timestamp, at offset start in that text. buf is scratch.
func (c *copies) key(buf *[]byte, id, ts []byte, t *text, n, start int, match []byte) matchKey {
	b := append((*buf)[:0], id...)
	b = append(append(b, 0), ts...)
	b = append(append(b, 0), t.role...)
	b = append(append(b, 0), t.kind...)
	b = binary.LittleEndian.AppendUint64(append(b, 0), uint64(n))
	b = binary.LittleEndian.AppendUint64(b, uint64(start))
	b = append(b, match...)
	*buf = b
	return matchKey{maphash.Bytes(c.seeds[0], b), maphash.Bytes(c.seeds[1], b)}
}

// shares reports whether file holds any match another file holds.
func (c *copies) shares(file int) bool {
	return c.shared[file]
}

// add records that file holds the matches keys.
func (c *copies) add(file int, header time.Time, keys []matchKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.headers[file] = header
	if c.counted != nil {
		if keys == nil {
			keys = []matchKey{} // not nil: the file was read
		}
		c.counted[file] = keys
	}
	for _, k := range keys {
		c.holders[k] = c.with(c.holders[k], int32(file))
	}
	c.pending = append(c.pending, keys...)
}

// prune drops, once a group of files is read, the matches only one of them
// holds: what the first pass keeps grows with the matches of one group,
// and then with the matches that files share.
func (c *copies) prune(group []int) {
	for _, k := range c.pending {
		if s, ok := c.holders[k]; ok && len(c.sets[s]) < 2 {
			delete(c.holders, k)
		}
	}
	c.pending = nil
	if c.counted == nil {
		return
	}
	for _, f := range group {
		keys := c.counted[f]
		if keys == nil {
			continue
		}
		kept := []matchKey{} // not nil: the file was read
		for _, k := range keys {
			if _, ok := c.holders[k]; ok {
				kept = append(kept, k)
			}
		}
		c.counted[f], c.alone[f] = kept, len(keys)-len(kept)
	}
}

// with is the interned set s with file added.
func (c *copies) with(s uint32, file int32) uint32 {
	if n, ok := c.trans[[2]uint32{s, uint32(file)}]; ok {
		return n
	}
	old := c.sets[s]
	i := sort.Search(len(old), func(i int) bool { return old[i] >= file })
	n := s
	if i == len(old) || old[i] != file {
		set := make([]int32, 0, len(old)+1)
		set = append(append(append(set, old[:i]...), file), old[i:]...)
		n = c.intern(set)
	}
	c.trans[[2]uint32{s, uint32(file)}] = n
	return n
}

// intern finds set among the sets, or adds it.
func (c *copies) intern(set []int32) uint32 {
	b := make([]byte, 4*len(set))
	for i, f := range set {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(f))
	}
	if n, ok := c.setIDs[string(b)]; ok {
		return n
	}
	c.sets = append(c.sets, set)
	c.setIDs[string(b)] = uint32(len(c.sets) - 1)
	return uint32(len(c.sets) - 1)
}

// finish drops the matches of one file and ranks each set's holders.
func (c *copies) finish() {
	for k, s := range c.holders {
		if len(c.sets[s]) < 2 {
			delete(c.holders, k)
		}
	}
	c.trans, c.setIDs = nil, nil
	c.shared = make([]bool, len(c.files))
	c.first = make([]int32, len(c.sets))
	c.others = make([][]string, len(c.sets))
	for s, set := range c.sets {
		if len(set) < 2 {
			continue
		}
		first := set[0]
		for _, f := range set[1:] {
			if c.before(int(f), int(first)) {
				first = f
			}
		}
		c.first[s] = first
		for _, f := range set {
			c.shared[f] = true
			if f != first {
				c.others[s] = append(c.others[s], c.files[f])
			}
		}
	}
}

// before reports whether file a is held before file b: the earlier header,
// an unread one last, then the path.
func (c *copies) before(a, b int) bool {
	ha, hb := c.headers[a], c.headers[b]
	switch {
	case ha.IsZero() != hb.IsZero():
		return hb.IsZero()
	case !ha.Equal(hb):
		return ha.Before(hb)
	}
	return c.files[a] < c.files[b]
}

// lookup says what to do with a match of file: hide it (a copy's), or show
// it naming its copies (none when no other file holds it).
func (c *copies) lookup(file int, k matchKey) (hide bool, others []string) {
	s, ok := c.holders[k]
	if !ok {
		return false, nil
	}
	if c.first[s] != int32(file) {
		return true, nil
	}
	return false, c.others[s]
}

// count returns, for a file the first pass read and kept (see
// copies.counted), how many of its matches it shows: those that are not
// copies of another file's.
func (c *copies) count(file int, name string) (n int, ok bool) {
	if i, in := c.place(name); !in || i != file || c.counted == nil || c.counted[file] == nil {
		return 0, false
	}
	n = c.alone[file]
	for _, k := range c.counted[file] {
		if hide, _ := c.lookup(file, k); !hide {
			n++
		}
	}
	return n, true
}

// scanCopies is the first pass: it searches the files that share history
// with another (relatives), one group after the other, with workers
// goroutines, and records each file's match keys, keeping once a group is
// read only those another file holds (copies.prune); it returns nil, and
// reads no file past its header, when no file shares history with
// another. A search that only counts keeps them, and its counts are made
// from them (copies.count): those files are read once.
func scanCopies(ctx context.Context, m *Matcher, opts Options, files []string, workers int) *copies {
	c := newCopies(files)
	groups := relatives(files, c.index)
	if len(groups) == 0 {
		return nil
	}
	if opts.CountOnly && opts.Limit == 0 {
		c.counted, c.alone = make([][]matchKey, len(files)), make([]int, len(files))
	}
	opts.Limit, opts.CountOnly = 0, true
	jobs := make(chan int)
	var read, wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				s := &fileSearch{m: m, opts: &opts, name: files[i], copies: c, file: i, pass1: true}
				if _, err := s.search(ctx); err == nil {
					c.add(i, s.headerTime, s.keys)
				}
				read.Done()
			}
		}()
	}
	for _, g := range groups {
		c.scanGroup(ctx, g, jobs, &read)
	}
	close(jobs)
	wg.Wait()
	c.finish()
	return c
}

// scanGroup hands a group's files to the workers, waits until they are
// read, and prunes what only one of them holds.
func (c *copies) scanGroup(ctx context.Context, group []int, jobs chan<- int, read *sync.WaitGroup) {
	for _, i := range group {
		read.Add(1)
		select {
		case jobs <- i:
		case <-ctx.Done():
			read.Done()
		}
	}
	read.Wait()
	c.prune(group)
}
