package safefile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// AppendLine appends one complete line to path under its lock, after checking
// that path still has stamp expect. The line is written with a single write
// call and synced, so a crash leaves the file either untouched or with the
// whole line (a torn write is truncated away before returning an error).
// Nothing is replaced: the file keeps its inode, owner and mode.
//
// The path is resolved once (see WriteFile); the file is then opened in its
// folder without following a link or blocking on a FIFO, locked, and
// checked through that descriptor, which is the one written.
//
// Pi takes no lock, so it may append between the check and the write. The
// line then lands after Pi's, and since Pi's active leaf is the last entry
// of the file, an entry whose parent was the old last entry would take Pi's
// line off the active branch. So when the line did not land at expect.Size,
// AppendLine withdraws it: it overwrites the line's bytes, which no one else
// writes, with spaces (a blank line, which Pi's loader skips and pitool
// repair removes) and returns ErrChanged.
func AppendLine(path string, expect Stamp, line []byte) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	CleanFolder(filepath.Dir(target))
	d, err := openDirFor(path, filepath.Dir(target))
	if err != nil {
		return err
	}
	defer d.Close()
	f, err := d.openRegular(filepath.Base(target), unix.O_WRONLY|unix.O_APPEND)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if err := expect.checkNow(stampOf(info), path); err != nil {
		return err
	}
	prior := lastChangeOf(f, info)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	pauseForTest()
	if _, err := writerOf(f).Write(line); err != nil {
		f.Truncate(expect.Size)
		return fmt.Errorf("append to %s: %w", path, err)
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err == nil && end-int64(len(line)) != expect.Size {
		err = withdraw(f, path, end-int64(len(line)), len(line))
	}
	if err == nil {
		err = syncFile(f)
	}
	if err != nil {
		return err
	}
	markOwnWrite(f, prior)
	return f.Close()
}

// withdraw blanks the line of n bytes pitool appended to f at offset at
// (spaces, then its newline), after lines someone else appended meanwhile.
// It writes through f, the descriptor the line was appended through, with
// O_APPEND cleared (Linux appends a pwrite on an O_APPEND descriptor).
func withdraw(f *os.File, path string, at int64, n int) error {
	fd := int(f.Fd())
	err := clearFlag(fd, path, unix.O_APPEND)
	if err == nil {
		var wrote int
		wrote, err = unix.Pwrite(fd, append(bytes.Repeat([]byte{' '}, n-1), '\n'), at)
		if err == nil && wrote < n {
			err = io.ErrShortWrite
		}
	}
	if err == nil {
		err = syncFile(f)
	}
	if err != nil {
		return fmt.Errorf("%s: appended to while a line was added at byte %d, and that line could not be withdrawn (blank it by hand: it is off Pi's branch): %w", path, at, err)
	}
	return fmt.Errorf("%s: appended to while a line was added; the line was withdrawn (left blank at byte %d): %w", path, at, ErrChanged)
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
