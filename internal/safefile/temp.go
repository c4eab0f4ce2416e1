package safefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// tempMarker is in the name of every temporary file pitool writes:
// .NAME.pitool-tmp-RANDOM, in the folder of the file it becomes.
const tempMarker = ".pitool-tmp-"

// ReportStale, when set, is told about each stale temporary file removed
// (the cmd layer prints "pitool: removed stale temporary file X").
var ReportStale func(path string)

var (
	cleanedMu sync.Mutex
	cleaned   = map[string]bool{} // folders already cleaned by this process
	reportMu  sync.Mutex
)

// IsTempName reports whether a file name is one of pitool's temporary files.
func IsTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}

// temp is a temporary file its writer holds locked; w is what its bytes
// are written through (see writerOf).
type temp struct {
	f *os.File
	w io.Writer
}

// newTemp creates a locked temporary file beside target, after removing the
// stale ones in that folder (once per process and folder).
func newTemp(target string) (*temp, error) {
	dir := filepath.Dir(target)
	CleanFolder(dir)
	for range 3 {
		f, err := os.CreateTemp(dir, "."+filepath.Base(target)+tempMarker+"*")
		if err != nil {
			return nil, fmt.Errorf("create temporary file: %w", err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err == nil && stillNamed(f) {
			return &temp{f: f, w: writerOf(f)}, nil
		}
		f.Close() // another process took it for stale before we locked it
	}
	return nil, fmt.Errorf("create temporary file in %s: removed by another process", dir)
}

// stillNamed reports whether f is still the file at its name.
func stillNamed(f *os.File) bool {
	a, errA := f.Stat()
	b, errB := os.Lstat(f.Name())
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// discard closes and removes the temporary file.
func (t *temp) discard() {
	t.f.Close()
	os.Remove(t.f.Name())
}

// sync syncs the temporary file; it stays open, and locked, until close,
// after it was renamed, so that no other pitool takes it for stale.
func (t *temp) sync() error {
	if err := syncFile(t.f); err != nil {
		return fmt.Errorf("sync %s: %w", t.f.Name(), err)
	}
	return nil
}

// close closes the renamed temporary file, which releases its lock.
func (t *temp) close() error {
	if err := t.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", t.f.Name(), err)
	}
	return nil
}

// CleanFolder removes the stale temporary files in dir, reporting each one
// to ReportStale, once per process and folder (every write does it too).
func CleanFolder(dir string) {
	cleanedMu.Lock()
	done := cleaned[dir]
	cleaned[dir] = true
	cleanedMu.Unlock()
	if done {
		return
	}
	removed, _ := CleanStale(dir)
	if ReportStale != nil {
		reportMu.Lock()
		defer reportMu.Unlock()
		for _, p := range removed {
			ReportStale(p)
		}
	}
}

// CleanStale removes pitool's temporary files in dir whose writer is dead
// (their lock can be taken) and returns their paths.
func CleanStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("look for stale temporary files: %w", err)
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTempName(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if removeIfDead(path) {
			removed = append(removed, path)
		}
	}
	return removed, nil
}

// removeIfDead removes path when its lock can be taken.
func removeIfDead(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return false
	}
	if !stillNamed(f) {
		return false
	}
	return os.Remove(path) == nil
}
