// Package nightstate owns nightly's state file (REPORT.state, next to
// --report FILE): per file nightly read and left unchanged with nothing due,
// its stat and what was found, so that the next run's cost for a file still
// exactly so is one stat.
//
// It is a hint, never trusted over the file: any change of size, mtime,
// ctime, inode or device, of the run's settings, or of the pitool binary, and
// the file is worked on in full. Deleting it costs one full run. The caller
// records only results that are a function of the file's bytes and the
// settings (nothing was due, the file was not changed), never one that
// depends on the time (live, archived) or that wrote anything.
package nightstate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pitool/pitool/internal/safefile"
	"golang.org/x/sys/unix"
)

// Suffix names the state file after the report: REPORT.state.
const Suffix = ".state"

// version is the layout of the state file (format.go); a file of another
// version is ignored.
const version = 2

// Settle is how long before the stat a file must have last changed (its
// ctime) for a run to record it. File times come from a coarse clock, so a
// file written again within the same tick as the stat could keep its stamp;
// a file changed that recently is worked on in full again next time. A
// filesystem whose times have a fraction of a second ticks within
// SettleFine (the kernel's clock tick, a few milliseconds); one whose times
// are whole seconds (FAT, HFS+, some network filesystems) needs the whole
// second. A fixed second re-read every file a run found changed in its last
// second: 473–638 of 10,000 files just copied in (issue 28).
const (
	Settle     = time.Second
	SettleFine = 20 * time.Millisecond
)

// Stamp is what a run compares of a file: what a stat says of it.
type Stamp struct {
	Size    int64
	MtimeNs int64
	CtimeNs int64
	Ino     uint64
	Dev     uint64
}

// StampFile stats path (following a symlink, as reading it does).
func StampFile(path string) (Stamp, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return Stamp{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return stampOfStat(&st), nil
}

// StampOf is the stamp of a stat the walk took (sessionfiles.File.Info,
// whose Sys is a *unix.Stat_t); ok is false for any other.
func StampOf(info fs.FileInfo) (s Stamp, ok bool) {
	st, ok := info.Sys().(*unix.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return stampOfStat(st), true
}

func stampOfStat(st *unix.Stat_t) Stamp {
	return Stamp{Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
		Ino: uint64(st.Ino), Dev: uint64(st.Dev)} //nolint:unconvert // Ino's and Dev's types differ by platform
}

// Settled reports whether the file last changed at least Settle before now
// (SettleFine when its times have a fraction of a second).
func (s Stamp) Settled(now time.Time) bool {
	settle := Settle
	if s.CtimeNs%int64(time.Second) != 0 || s.MtimeNs%int64(time.Second) != 0 {
		settle = SettleFine
	}
	return now.Sub(time.Unix(0, max(s.CtimeNs, s.MtimeNs))) >= settle
}

// Entry is one file's record: its stamp and what the run found.
type Entry struct {
	File string
	Stamp
	Action       string
	Detail       string
	TokensBefore int
}

// file is the state file's content.
type file struct {
	Version  int
	Settings string // the binary and the options the results depend on
	Files    []Entry
}

// State is the state of the previous run, read once, and the one this run
// records as files finish. Its methods are safe for concurrent use; a nil
// State remembers nothing and saves nothing.
type State struct {
	path     string
	settings string
	loaded   bool // prev is the state file's content: same layout and settings
	existed  bool // a state file was there, of whatever content
	mu       sync.Mutex
	// prev is the state file's entries, sorted by path (Save sorts them),
	// as the walk lists files: a lookup looks first after the entry found
	// last (cursor), and hashes the paths (index) only when that misses.
	// Over 10,000 files remembered, a map of them cost 2-3 ms of a 50 ms run.
	prev   []Entry
	cursor int
	index  map[string]int
	// what this run keeps for the next: the entries of prev it keeps as
	// they are (kept[i]), marked rather than copied (a tenth of the memory
	// a second run over 10,000 files touched: issue 28), and the others
	kept []bool
	next []Entry
}

// Open reads the state file at path. A missing or unreadable state file, or
// one of another layout or other settings, gives an empty state: the run
// does the full work. The error says why, except for a missing file.
func Open(path, settings string) (*State, error) {
	st := &State{path: path, settings: settings}
	prev, err := read(path)
	st.existed = !errors.Is(err, fs.ErrNotExist)
	switch {
	case !st.existed:
	case err != nil:
		return st, err
	case prev.Version != version || prev.Settings != settings:
		// another binary or other options: the remembered results may differ
	default:
		st.loaded = true
		st.prev = prev.Files
		st.kept = make([]bool, len(prev.Files))
	}
	return st, nil
}

func read(path string) (*file, error) {
	f, err := safefile.OpenRegular(path) // a FIFO put there is refused, not waited on
	if err != nil {
		return nil, err
	}
	text, err := readText(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	sf, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return sf, nil
}

// readText reads f whole into a string made to its size: an entry's
// string without an escape is a slice of it, not a copy.
func readText(f *os.File) (string, error) {
	var b strings.Builder
	if info, err := f.Stat(); err == nil {
		b.Grow(int(info.Size()) + 1)
	}
	_, err := io.Copy(&b, f)
	return b.String(), err
}

// Remembered returns the previous run's result for path when path still has
// the stamp it had then.
func (st *State) Remembered(path string, now Stamp) (Entry, bool) {
	if st == nil {
		return Entry{}, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.lookup(path)
	if i < 0 {
		return Entry{}, false
	}
	return st.prev[i], st.prev[i].Stamp == now
}

// lookup returns the index in prev of path's entry, or -1; st.mu is held.
func (st *State) lookup(path string) int {
	if c := st.cursor; c < len(st.prev) && st.prev[c].File == path {
		st.cursor++
		return c
	}
	if st.index == nil {
		st.index = make(map[string]int, len(st.prev))
		for i, e := range st.prev {
			st.index[e.File] = i
		}
	}
	i, ok := st.index[path]
	if !ok {
		return -1
	}
	st.cursor = i + 1
	return i
}

// Keep records e for the next run.
func (st *State) Keep(e Entry) {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if i := st.find(e.File); i >= 0 && st.prev[i] == e {
		st.kept[i] = true
		return
	}
	st.next = append(st.next, e)
}

// find is lookup looking first at the entry found last (Remembered, then
// Keep); st.mu is held.
func (st *State) find(path string) int {
	if c := st.cursor - 1; c >= 0 && c < len(st.prev) && st.prev[c].File == path {
		return c
	}
	return st.lookup(path)
}

// entries are the entries this run keeps, in no order.
func (st *State) entries() []Entry {
	out := slices.Clip(st.next)
	for i, k := range st.kept {
		if k {
			out = append(out, st.prev[i])
		}
	}
	return out
}

// Save writes the state of this run through the write protocol, unless it
// is the state file's content already (a run that found nothing changed
// writes nothing) or the run has nothing to remember and found no state
// file (none is as good as an empty one).
func (st *State) Save() error {
	if st == nil || st.unchanged() {
		return nil
	}
	files := st.entries()
	if len(files) == 0 && !st.existed {
		return nil
	}
	slices.SortFunc(files, func(a, b Entry) int { return strings.Compare(a.File, b.File) })
	sf := file{Version: version, Settings: st.settings, Files: files}
	data := encode(make([]byte, 0, 128*(len(sf.Files)+1)), &sf)
	return safefile.WriteFile(st.path, safefile.Options{}, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// unchanged reports whether this run recorded exactly what the state file
// holds: every entry of it as it was, and nothing else.
func (st *State) unchanged() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.loaded && len(st.next) == 0 && !slices.Contains(st.kept, false)
}
