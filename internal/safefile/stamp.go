package safefile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// ErrChanged means a file changed between the moment it was read and the write.
var ErrChanged = errors.New("file changed since it was read")

// ErrRecentlyModified means the file was modified too recently to be safe.
var ErrRecentlyModified = errors.New("it may belong to a live Pi session")

// IdleTime is how long a file must have been left alone before an in-place
// command (repair, redact) rewrites it without --force: a file changed more
// recently may belong to a live Pi session.
const IdleTime = time.Minute

// hashWindow is how many bytes at each end of a file its stamp hashes.
const hashWindow = 64 << 10

// Stamp identifies a version of a file.
type Stamp struct {
	Size     int64
	ModTime  time.Time
	Dev, Ino uint64
	ends     []byte // SHA-256 of the first and last hashWindow bytes, from Begin only
}

// StatStamp returns the current stamp of path (without the content hash).
func StatStamp(path string) (Stamp, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	return stampOf(info), nil
}

// InfoStamp returns the stamp of the file info describes: the stamp of an
// opened descriptor (fstat), which binds a later write to the file read.
func InfoStamp(info os.FileInfo) Stamp { return stampOf(info) }

func stampOf(info os.FileInfo) Stamp {
	s := Stamp{Size: info.Size(), ModTime: info.ModTime()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.Dev, s.Ino = uint64(st.Dev), st.Ino
	}
	return s
}

// sameFile reports whether two stamps are of the same inode.
func (s Stamp) sameFile(o Stamp) bool { return s.Dev == o.Dev && s.Ino == o.Ino }

// Check returns ErrChanged (wrapped with the path) when path no longer has stamp s.
func (s Stamp) Check(path string) error {
	now, err := StatStamp(path)
	if err != nil {
		return err
	}
	return s.checkNow(now, path)
}

// checkNow returns ErrChanged (wrapped with the path) unless now is s: the
// same inode, size and modification time.
func (s Stamp) checkNow(now Stamp, path string) error {
	if now.Size != s.Size || !now.ModTime.Equal(s.ModTime) || !now.sameFile(s) {
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return nil
}

// hashEnds hashes the first and last hashWindow bytes of f's first size bytes.
func hashEnds(f io.ReaderAt, size int64) ([]byte, error) {
	h := sha256.New()
	head := min(size, hashWindow)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, head)); err != nil {
		return nil, err
	}
	tail := max(head, size-hashWindow)
	if _, err := io.Copy(h, io.NewSectionReader(f, tail, size-tail)); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// sameEnds reports whether f's first s.Size bytes still hash as they did.
func (s Stamp) sameEnds(f io.ReaderAt) (bool, error) {
	sum, err := hashEnds(f, s.Size)
	return bytes.Equal(sum, s.ends), err
}

// CheckIdle returns ErrRecentlyModified when path was modified less than idle ago.
func CheckIdle(path string, idle time.Duration) error {
	s, err := StatStamp(path)
	if err != nil {
		return err
	}
	if age := time.Since(s.ModTime); age < idle {
		return fmt.Errorf("%s: modified %s ago (within %s): %w", path, age.Round(time.Second), idle, ErrRecentlyModified)
	}
	return nil
}

// GuardLive is the live-session guard every in-place command shares: unless
// force, it refuses a file modified within IdleTime.
func GuardLive(path string, force bool) error {
	if force {
		return nil
	}
	if err := CheckIdle(path, IdleTime); err != nil {
		return fmt.Errorf("%w; use --force if no Pi session is using it", err)
	}
	return nil
}
