package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/pitool/pitool/internal/safefile"
)

// The nightly state file (REPORT.state, next to --report FILE) remembers,
// per file, the stat of a file nightly read and left unchanged, and what it
// found, so that the next run's cost for a file still exactly so is one stat.
// It is a hint, never trusted over the file: any change of size, mtime,
// ctime, inode or device, of the run's settings, or of the pitool binary, and
// the file is worked on in full. Deleting it costs one full run. It records
// only results that are a function of the file's bytes and the settings
// (nothing was due, the file was not changed), never one that depends on the
// time (live, archived) or that wrote anything (compacted, repaired).

// stateVersion is the layout of the state file; a file of another layout is
// ignored.
const stateVersion = 1

// stateSettle is how long before the stat a file must have last changed
// (its ctime) for nightly to record it. File times come from a coarse clock,
// so a file written again within the same tick as the stat could keep its
// stamp; a file changed that recently is worked on in full again next time.
// A filesystem whose times have a fraction of a second ticks within
// stateSettleFine (the kernel's clock tick, a few milliseconds); one whose
// times are whole seconds (FAT, HFS+, some network filesystems) needs the
// whole second. A fixed second re-read every file a run found changed in its
// last second: 473–638 of 10,000 files just copied in (issue 28).
const (
	stateSettle     = time.Second
	stateSettleFine = 20 * time.Millisecond
)

// fileStamp is what nightly compares of a file: what a stat says of it.
type fileStamp struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtimeNs"`
	CtimeNs int64  `json:"ctimeNs"`
	Ino     uint64 `json:"ino"`
	Dev     uint64 `json:"dev"`
}

// stampFile stats path (following a symlink, as reading it does).
func stampFile(path string) (fileStamp, error) {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, fmt.Errorf("%s: no inode to stamp", path)
	}
	return fileStamp{Size: info.Size(), MtimeNs: info.ModTime().UnixNano(), CtimeNs: ctimeNs(st),
		Ino: st.Ino, Dev: uint64(st.Dev)}, nil
}

// settled reports whether the file last changed at least stateSettle before
// now (stateSettleFine when its times have a fraction of a second).
func (s fileStamp) settled(now time.Time) bool {
	settle := stateSettle
	if s.CtimeNs%int64(time.Second) != 0 || s.MtimeNs%int64(time.Second) != 0 {
		settle = stateSettleFine
	}
	return now.Sub(time.Unix(0, max(s.CtimeNs, s.MtimeNs))) >= settle
}

// stateEntry is one file's record: its stamp and what the run found.
type stateEntry struct {
	File string `json:"file"`
	fileStamp
	Action       string `json:"action"`
	Detail       string `json:"detail,omitempty"`
	TokensBefore int    `json:"tokensBefore"`
}

// stateFile is the state file's content.
type stateFile struct {
	Version  int          `json:"version"`
	Settings string       `json:"settings"` // the binary and the options the results depend on
	Files    []stateEntry `json:"files"`
}

// nightlyState is the state of the previous run, read once, and the one this
// run records as files finish.
type nightlyState struct {
	path     string
	settings string
	prev     map[string]stateEntry
	mu       sync.Mutex
	next     []stateEntry
}

// stateSettings names what a remembered result depends on besides the file:
// the pitool binary and the options of the run.
func stateSettings(run *nightlyRun) string {
	info, ok := debug.ReadBuildInfo()
	return fmt.Sprintf("%s; window %d, %+v, force %v, archive after %v",
		buildVersion(info, ok), run.opts.ContextWindow, run.opts.Settings, run.opts.Force, run.archiveAfter)
}

// openState reads the state file at path. A missing, unreadable or foreign
// state file, or one of other settings, gives an empty state: the run does
// the full work, and says why on stderr unless the file is simply missing.
func openState(e *env, path, settings string) *nightlyState {
	st := &nightlyState{path: path, settings: settings, prev: map[string]stateEntry{}}
	prev, err := readState(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		e.infof("nightly: %v; every file is worked on in full", err)
	case prev.Version != stateVersion || prev.Settings != settings:
		// another binary or other options: the remembered results may differ
	default:
		for _, f := range prev.Files {
			st.prev[f.File] = f
		}
	}
	return st
}

func readState(path string) (*stateFile, error) {
	f, err := safefile.OpenRegular(path) // a FIFO put there is refused, not waited on
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	var sf stateFile
	if err := json.Unmarshal(data, &sf); err != nil {
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return &sf, nil
}

// remembered returns the previous run's result for path when path still has
// the stamp it had then.
func (st *nightlyState) remembered(path string, now fileStamp) (stateEntry, bool) {
	e, ok := st.prev[path]
	return e, ok && e.fileStamp == now
}

// keep carries a remembered result over to the next run.
func (st *nightlyState) keep(e stateEntry) {
	st.mu.Lock()
	st.next = append(st.next, e)
	st.mu.Unlock()
}

// record remembers r for the next run when it is a result that the file's
// bytes and the settings decide, and the file had stamp s before it was read.
func (st *nightlyState) record(r fileReport, s fileStamp, at time.Time) {
	if rememberable(r) && s.settled(at) {
		st.keep(stateEntry{File: r.file, fileStamp: s, Action: r.action, Detail: r.detail, TokensBefore: r.tokens.before})
	}
}

// rememberable: nothing was due and nothing was written.
func rememberable(r fileReport) bool {
	return r.action == actNotDue && !r.repaired && len(r.damage) == 0 && r.tokens != nil
}

// report is the report of a file with the remembered result e.
func (e stateEntry) report(path string) fileReport {
	return fileReport{file: path, action: e.Action, detail: e.Detail, tokens: &compactTokens{before: e.TokensBefore}, remembered: true}
}

// save writes the state of this run through the write protocol.
func (st *nightlyState) save() error {
	if st == nil {
		return nil
	}
	sf := stateFile{Version: stateVersion, Settings: st.settings, Files: st.next}
	if sf.Files == nil {
		sf.Files = []stateEntry{}
	}
	return safefile.WriteFile(st.path, safefile.Options{}, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(sf)
	})
}
