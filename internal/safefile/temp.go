package safefile

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
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

// tempName is a new temporary name for the file name.
func tempName(name string) string {
	return "." + name + tempMarker + strconv.FormatUint(rand.Uint64(), 36)
}

// temp is a temporary file its writer holds locked, in the folder d under
// name; w is what its bytes are written through (see writerOf). f is named
// after the file it becomes, so that every error of a write, sync or close
// names the user's path, never the temporary name. It is
// opened with O_APPEND: after it was renamed over a file, what carryLate
// appends to it lands after what Pi appends to it by name meanwhile.
type temp struct {
	d    *dir
	name string
	f    *os.File
	w    io.Writer
}

// newTemp creates a locked temporary file in d beside the file name
// (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600), after removing the stale ones in
// that folder (once per process and folder).
func newTemp(d *dir, name string) (*temp, error) {
	CleanFolder(d.path)
	for range 3 {
		tmp := tempName(name)
		fd, err := unix.Openat(d.fd(), tmp, unix.O_RDWR|unix.O_APPEND|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, newFileMode)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "write", Path: d.join(name), Err: err}
		}
		f := os.NewFile(uintptr(fd), d.join(name))
		if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err == nil && d.holds(tmp, f) {
			return &temp{d: d, name: tmp, f: f, w: writerOf(f)}, nil
		}
		f.Close() // another process took it for stale before we locked it
	}
	return nil, fmt.Errorf("write %s: its temporary file was removed by another process", d.join(name))
}

// discard closes and removes the temporary file.
func (t *temp) discard() {
	t.f.Close()
	t.d.unlink(t.name)
}

// sync syncs the temporary file; it stays open, and locked, until close,
// after it was renamed, so that no other pitool takes it for stale.
func (t *temp) sync() error {
	return syncFile(t.f) // its error names the file (see temp)
}

// close closes the renamed temporary file, which releases its lock.
func (t *temp) close() error {
	return t.f.Close() // its error names the file (see temp)
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
// (their lock can be taken) and returns their paths. The folder is opened
// once; each file is opened without following a link or blocking on a
// FIFO, and removed only while its name still holds the file locked.
func CleanStale(path string) ([]string, error) {
	d, err := openDir(path)
	if err != nil {
		return nil, fmt.Errorf("look for stale temporary files: %w", err)
	}
	defer d.Close()
	entries, err := d.f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("look for stale temporary files: %w", err)
	}
	var removed []string
	for _, e := range entries {
		if e.Type().IsRegular() && IsTempName(e.Name()) && d.removeIfDead(e.Name()) {
			removed = append(removed, d.join(e.Name()))
		}
	}
	return removed, nil
}

// removeIfDead removes the temporary file name in d when its lock can be
// taken (its writer is dead) and the name still holds the file locked.
func (d *dir) removeIfDead(name string) bool {
	f, err := d.openRegular(name, unix.O_RDONLY)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil || !d.holds(name, f) {
		return false
	}
	return d.unlink(name) == nil
}
