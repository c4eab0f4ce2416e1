package safefile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"
)

// maxCarry bounds the bytes appended meanwhile that one recheck carries over.
const maxCarry = 256 << 20

// linePoll is how often an incomplete appended line is looked at again.
const linePoll = 20 * time.Millisecond

// recheck checks that the file's name in its folder (looked up through the
// folder's descriptor, a symlink not followed) still holds the inode of the
// stamp, that it did not shrink, and that its first and last stamped bytes
// are unchanged.
func (e *Edit) recheck() (Stamp, error) {
	info, err := e.dir.lstat(e.name)
	if err != nil {
		return Stamp{}, err
	}
	now := stampOf(info)
	switch {
	case !now.sameFile(e.stamp):
		return now, fmt.Errorf("%s: replaced by another file: %w", e.Path, ErrChanged)
	case now.Size < e.stamp.Size:
		return now, fmt.Errorf("%s: shrank from %d to %d bytes: %w", e.Path, e.stamp.Size, now.Size, ErrChanged)
	}
	same, err := e.stamp.sameEnds(e.old)
	if err == nil && !same {
		err = fmt.Errorf("%s: its content was rewritten: %w", e.Path, ErrChanged)
	}
	return now, err
}

// carryUntilStable rechecks the file until it stops growing, carrying each
// grown part to the end of f, and returns the size the new content covers.
// The caller syncs f and calls it again (carryAndSync).
func (e *Edit) carryUntilStable(f io.Writer, basis int64, carry func(io.Writer, []byte) error) (int64, error) {
	cur := basis
	for range maxRechecks {
		now, err := e.recheck()
		if err != nil {
			return 0, err
		}
		switch {
		case cur < 0 && (now.Size != e.stamp.Size || !now.ModTime.Equal(e.stamp.ModTime)):
			return 0, fmt.Errorf("%s: changed while its compressed copy was written: %w", e.Path, ErrChanged)
		case cur < 0:
			return cur, nil
		case now.Size < cur:
			return 0, fmt.Errorf("%s: shrank to %d bytes: %w", e.Path, now.Size, ErrChanged)
		case now.Size == cur && cur == e.stamp.Size && !now.ModTime.Equal(e.stamp.ModTime):
			return 0, fmt.Errorf("%s: rewritten with the same size: %w", e.Path, ErrChanged)
		case now.Size == cur:
			return cur, nil
		}
		n, err := e.carryFrom(f, cur, now.Size, carry)
		if err != nil {
			return 0, err
		}
		cur += n
	}
	return 0, fmt.Errorf("%s: keeps growing; try again when it is idle: %w", e.Path, ErrChanged)
}

// carryFrom reads the whole lines appended to the old file after from (size
// was seen) and writes them to w, returning how many old bytes they were.
func (e *Edit) carryFrom(w io.Writer, from, size int64, carry func(io.Writer, []byte) error) (int64, error) {
	appended, err := e.appended(from, size)
	if err != nil {
		return 0, err
	}
	if carry == nil {
		_, err = w.Write(appended)
	} else {
		err = carry(w, appended)
	}
	if err != nil {
		return 0, fmt.Errorf("carry lines appended to %s: %w", e.Path, err)
	}
	return int64(len(appended)), nil
}

// appended returns the bytes of the old file from from on (at least up to
// size), once they are whole lines, waiting up to LineWait for the last one.
func (e *Edit) appended(from, size int64) ([]byte, error) {
	if from > 0 {
		var b [1]byte
		if _, err := e.old.ReadAt(b[:], from-1); err != nil || b[0] != '\n' {
			return nil, fmt.Errorf("%s: appended to a line that was not complete: %w", e.Path, ErrChanged)
		}
	}
	deadline := time.Now().Add(LineWait)
	for {
		if size-from > maxCarry {
			return nil, fmt.Errorf("%s: more than %d bytes appended meanwhile: %w", e.Path, maxCarry, ErrChanged)
		}
		buf := make([]byte, size-from)
		if _, err := e.old.ReadAt(buf, from); err != nil {
			return nil, fmt.Errorf("read lines appended to %s: %w", e.Path, err)
		}
		if bytes.HasSuffix(buf, []byte{'\n'}) {
			return buf, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: a line appended meanwhile stayed incomplete for %s: %w", e.Path, LineWait, ErrChanged)
		}
		time.Sleep(linePoll)
		info, err := e.old.Stat()
		if err != nil {
			return nil, err
		}
		size = info.Size()
	}
}

// lateQuiet is how long the old file must stay unchanged after the rename
// before carryLate stops watching it, and lateMax how long it watches at
// most. A writer that opened the file by name just before the rename still
// writes into the old inode: Pi opens, writes a line and closes at once, so
// what it writes lands well within lateQuiet.
const (
	lateQuiet = 50 * time.Millisecond
	lateMax   = 2 * time.Second
)

// carryLate appends to the new file what was appended to the old one
// between the last recheck (which saw end bytes) and the rename, and then
// what lands in the old one until it has stayed unchanged for lateQuiet.
// The old file is read through the descriptor kept since Begin, and the
// new one, next, written through the temporary file's, opened with
// O_APPEND: neither is ever opened again by name, which may by now be a
// symlink to another file.
func (e *Edit) carryLate(end int64, next *os.File, opts CommitOptions) (int64, error) {
	seen := max(end, e.stamp.Size)
	var carried int64
	quietSince, deadline := time.Now(), time.Now().Add(lateMax)
	for {
		info, err := e.old.Stat()
		if err != nil {
			return carried, err
		}
		if info.Size() > seen {
			if end < 0 {
				return carried, fmt.Errorf("%s: appended to while it was replaced by a compressed copy; the old file is kept as its backup: %w", e.Path, ErrChanged)
			}
			var buf bytes.Buffer
			n, err := e.carryFrom(&buf, seen, info.Size(), opts.Carry)
			if err == nil {
				err = appendSynced(next, e.Path, buf.Bytes())
			}
			if err != nil {
				return carried, err
			}
			carried, seen, quietSince = carried+n, seen+n, time.Now()
		}
		if now := time.Now(); now.Sub(quietSince) >= lateQuiet || now.After(deadline) {
			return carried, nil
		}
		time.Sleep(lateQuiet / 5)
	}
}

// appendSynced appends b to the file f (open with O_APPEND), which path
// names in messages, with one write, and syncs it.
func appendSynced(f *os.File, path string, b []byte) error {
	if _, err := writerOf(f).Write(b); err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := syncFile(f); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}
