package safefile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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

// ownWriteAttr is the extended attribute in which pitool marks a file it
// has just written (a repair or redaction in place, a compaction entry
// appended): the size and modification time the file had after pitool's
// write, and when it last changed before it. While the file still has that
// size and time, nobody wrote to it since pitool did, and LastChange
// answers with the earlier time, so that pitool never takes its own write
// for a live Pi session's. One append after it (Pi's) changes both, and the
// file counts as changed then. A filesystem without user extended
// attributes keeps no mark: the file then counts as changed at pitool's
// write, as it did before.
const ownWriteAttr = "user.pitool.write"

// markOwnWrite marks f, which pitool has just written, as described at
// ownWriteAttr; prior is when it last changed before. It is best effort.
func markOwnWrite(f *os.File, prior time.Time) {
	info, err := f.Stat()
	if err != nil {
		return
	}
	mark := fmt.Sprintf("%d %d %d", info.Size(), info.ModTime().UnixNano(), prior.UnixNano())
	unix.Fsetxattr(int(f.Fd()), ownWriteAttr, []byte(mark), 0)
}

// lastChangeOf is when the open file f, whose stat is info, last changed
// other than by pitool (see ownWriteAttr).
func lastChangeOf(f *os.File, info os.FileInfo) time.Time {
	var buf [64]byte
	n, err := unix.Fgetxattr(int(f.Fd()), ownWriteAttr, buf[:])
	if err != nil {
		return info.ModTime()
	}
	return priorChange(buf[:n], info)
}

// priorChange reads the mark: the time before pitool's write when the file
// still has the size and modification time pitool left it with, and its
// modification time otherwise.
func priorChange(mark []byte, info os.FileInfo) time.Time {
	f := strings.Fields(string(mark))
	if len(f) != 3 {
		return info.ModTime()
	}
	size, e1 := strconv.ParseInt(f[0], 10, 64)
	mtime, e2 := strconv.ParseInt(f[1], 10, 64)
	prior, e3 := strconv.ParseInt(f[2], 10, 64)
	if e1 != nil || e2 != nil || e3 != nil || size != info.Size() || mtime != info.ModTime().UnixNano() {
		return info.ModTime()
	}
	return time.Unix(0, prior)
}

// LastChange returns when path (following a symlink) last changed other
// than by pitool: its modification time, or, while the file is exactly as
// pitool's last write left it, when it changed before that write.
func LastChange(path string) (time.Time, error) {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}, err
	}
	var buf [64]byte
	n, err := unix.Getxattr(path, ownWriteAttr, buf[:])
	if err != nil {
		return info.ModTime(), nil
	}
	return priorChange(buf[:n], info), nil
}

// CheckIdle returns ErrRecentlyModified when path was modified less than idle
// ago, other than by pitool itself (see LastChange).
func CheckIdle(path string, idle time.Duration) error {
	changed, err := LastChange(path)
	if err != nil {
		return err
	}
	if age := time.Since(changed); age < idle {
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

// KeepTimeBeside gives name (a name, not a path: a file CreateBeside made,
// such as an archive of the file) the modification time of the file's last
// change other than by pitool, as gzip keeps a file's time: it holds those
// bytes, and is as idle as they are.
func (e *Edit) KeepTimeBeside(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	ts := []unix.Timespec{{Nsec: unix.UTIME_OMIT}, unix.NsecToTimespec(e.changed.UnixNano())}
	if err := unix.UtimesNanoAt(e.dir.fd(), name, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fmt.Errorf("keep the time of %s on %s: %w", e.Path, e.dir.join(name), err)
	}
	return nil
}
