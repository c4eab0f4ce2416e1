// Package safefile is the one way pitool writes session files: an advisory
// lock, a check that the input did not change since it was read, a temporary
// file in the same folder, fsync, rename, and a backup when replacing.
package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// ErrChanged means a file changed between the moment it was read and the write.
var ErrChanged = errors.New("file changed since it was read")

// ErrLocked means another process holds the file's lock.
var ErrLocked = errors.New("file is locked by another process")

// ErrRecentlyModified means the file was modified too recently to be safe.
var ErrRecentlyModified = errors.New("file was modified recently and may belong to a live Pi session")

// Stamp identifies a version of a file by size and modification time.
type Stamp struct {
	Size    int64
	ModTime time.Time
}

// StatStamp returns the current stamp of path.
func StatStamp(path string) (Stamp, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{Size: info.Size(), ModTime: info.ModTime()}, nil
}

// Check returns ErrChanged (wrapped with the path) when path no longer has stamp s.
func (s Stamp) Check(path string) error {
	now, err := StatStamp(path)
	if err != nil {
		return err
	}
	if now.Size != s.Size || !now.ModTime.Equal(s.ModTime) {
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return nil
}

// CheckIdle returns ErrRecentlyModified when path was modified less than idle ago.
func CheckIdle(path string, idle time.Duration) error {
	s, err := StatStamp(path)
	if err != nil {
		return err
	}
	if age := time.Since(s.ModTime); age < idle {
		return fmt.Errorf("%s (modified %s ago, less than %s): %w", path, age.Round(time.Second), idle, ErrRecentlyModified)
	}
	return nil
}

// LockWait is how long Lock waits for another pitool process to release a
// file before giving up with ErrLocked.
var LockWait = 2 * time.Second

// Lock takes the advisory lock of path, waiting up to LockWait for another
// holder. The lock is an flock on the file itself, so it excludes other pitool
// processes (a nightly job and an interactive run), not Pi, which takes no
// lock: Stamp and CheckIdle guard against Pi.
func Lock(path string) (unlock func() error, err error) {
	l := flock.New(path)
	ctx, cancel := context.WithTimeout(context.Background(), LockWait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrLocked)
	}
	return l.Unlock, nil
}

// Options controls Replace.
type Options struct {
	Backup bool   // keep the old file as path+".bak" (never overwriting an existing backup)
	Expect *Stamp // when set, refuse if path no longer has this stamp
}

// Replace atomically replaces path with the bytes write produces, under the
// file's lock. On any error path is untouched and the temporary file removed.
func Replace(path string, opts Options, write func(io.Writer) error) (err error) {
	unlock, err := Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	if opts.Expect != nil {
		if err := opts.Expect.Check(path); err != nil {
			return err
		}
	}
	var backup string
	if opts.Backup {
		if backup, err = BackupName(path); err != nil {
			return err
		}
	}
	return writeAndRename(path, backup, write)
}

// Create atomically writes a new file at path (replacing one that exists, but
// never a file that is being read: callers check that themselves).
func Create(path string, write func(io.Writer) error) error {
	return writeAndRename(path, "", write)
}

func writeAndRename(path, backup string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = finish(tmp, path); err != nil {
		return err
	}
	if backup != "" {
		if err = os.Link(path, backup); err != nil {
			return fmt.Errorf("keep backup %s: %w", backup, err)
		}
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	return syncDir(dir)
}

// finish syncs and closes tmp, copying the permissions of the file it replaces.
func finish(tmp *os.File, path string) error {
	if info, err := os.Stat(path); err == nil {
		if err := tmp.Chmod(info.Mode().Perm()); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	return tmp.Close()
}

// BackupName returns the name Replace gives the backup of path: FILE.bak, or
// FILE.bak.N when earlier backups exist, since a backup is never overwritten.
func BackupName(path string) (string, error) {
	name := path + ".bak"
	for i := 1; i < 1000; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
		name = fmt.Sprintf("%s.bak.%d", path, i)
	}
	return "", fmt.Errorf("%s: too many backups", path)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// AppendLine appends one complete line to path under its lock, after checking
// that path still has stamp expect. The line is written with a single write
// call and synced, so a crash leaves the file either untouched or with the
// whole line (a torn write is truncated away before returning an error).
func AppendLine(path string, expect Stamp, line []byte) error {
	unlock, err := Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	if err := expect.Check(path); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	if _, err := f.Write(line); err != nil {
		f.Truncate(expect.Size)
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return f.Sync()
}

// SameFile reports whether two paths name the same file ("-" names none).
func SameFile(a, b string) bool {
	if a == "-" || b == "-" {
		return false
	}
	ai, errA := os.Stat(a)
	bi, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(ai, bi)
	}
	absA, _ := filepath.Abs(a)
	absB, _ := filepath.Abs(b)
	return absA == absB
}
