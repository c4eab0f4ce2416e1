package safefile

import (
	"fmt"
	"os"
	"path/filepath"
)

// AppendLine appends one complete line to path under its lock, after checking
// that path still has stamp expect. The line is written with a single write
// call and synced, so a crash leaves the file either untouched or with the
// whole line (a torn write is truncated away before returning an error).
// Nothing is replaced: the file keeps its inode, owner and mode.
func AppendLine(path string, expect Stamp, line []byte) error {
	CleanFolder(filepath.Dir(path))
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
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
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
