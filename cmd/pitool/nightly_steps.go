package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// endsInNewline reports whether a plain file is empty or ends in '\n'
// (compressed files are checked by their decompressed lines instead).
func endsInNewline(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err == nil
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:], 0); err == nil && (bytes.HasPrefix(b[:], []byte{0x1f, 0x8b}) || bytes.Equal(b[:], []byte{0x28, 0xb5, 0x2f, 0xfd})) {
		return true
	}
	_, err = f.ReadAt(b[:1], info.Size()-1)
	return err == nil && b[0] == '\n'
}

// idleFor reports how long ago path was modified.
func idleFor(path string) (time.Duration, error) {
	s, err := safefile.StatStamp(path)
	if err != nil {
		return 0, err
	}
	return time.Since(s.ModTime), nil
}

// archivable reports whether path is a plain session file (not yet
// compressed): a regular file itself, not a symlink (archiving through one
// would leave it dangling), checked before it is opened (a FIFO blocks).
func archivable(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	return strings.HasSuffix(path, ".jsonl") && endsInNewline(path) && !isCompressed(path)
}

func isCompressed(path string) bool {
	src, err := jsonl.Open(path, nil)
	if err != nil {
		return false
	}
	defer src.Close()
	return src.Compression != jsonl.Plain
}

// archive compresses path to path+".zst" (with path's owner, group and
// mode, and read back to check it), then removes path, all under path's lock
// and only if path did not change meanwhile. The archive is removed again
// whenever path stays.
func archive(path string) (string, error) {
	dst := path + ".zst"
	edit, err := safefile.Begin(path)
	if err != nil {
		return "", err
	}
	defer edit.Close()
	sum, err := writeZstd(path, dst)
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s: archive %s already exists", path, dst)
	}
	if err == nil {
		err = verifyArchive(dst, sum)
	}
	if err == nil {
		err = edit.Remove()
	}
	if _, statErr := os.Lstat(path); err != nil && statErr == nil {
		os.Remove(dst)
	}
	return dst, err
}

// writeZstd compresses src into a new file dst and returns the SHA-256 of src.
func writeZstd(src, dst string) ([]byte, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	h := sha256.New()
	err = safefile.WriteFile(dst, safefile.Options{Like: src, NoClobber: true}, func(w io.Writer) error {
		enc, err := zstd.NewWriter(w)
		if err != nil {
			return err
		}
		if _, err := io.Copy(enc, io.TeeReader(in, h)); err != nil {
			enc.Close()
			return fmt.Errorf("compress %s: %w", src, err)
		}
		return enc.Close()
	})
	return h.Sum(nil), err
}

var errArchiveMismatch = errors.New("archive does not decompress to the original bytes")

// verifyArchive reads dst back through pitool's reader and compares its SHA-256.
func verifyArchive(dst string, want []byte) error {
	src, err := jsonl.Open(dst, nil)
	if err != nil {
		return err
	}
	defer src.Close()
	h := sha256.New()
	if _, err := io.Copy(h, src.Reader()); err != nil {
		return fmt.Errorf("read back %s: %w", dst, err)
	}
	if !bytes.Equal(h.Sum(nil), want) {
		return fmt.Errorf("%s: %w", dst, errArchiveMismatch)
	}
	return nil
}

// actRolledBack is the action of a file whose interrupted archive was undone.
const actRolledBack = "archive-rolled-back"

// awaitsPlain reports a X.jsonl.zst whose X.jsonl still exists: an
// interrupted archive, which the worker on X.jsonl resolves. It is checked
// before the file is opened, since that worker may remove it meanwhile.
func awaitsPlain(r fileReport, path string) (fileReport, bool) {
	base, ok := strings.CutSuffix(path, ".zst")
	if !ok || !strings.HasSuffix(base, ".jsonl") {
		return r, false
	}
	if _, err := os.Lstat(base); err != nil {
		return r, false
	}
	return r.did(actSkipped, "interrupted archive of "+base+": resolved with that file"), true
}

// recoverInterrupted cleans up after a pitool that was killed: it removes
// stale temporary files in path's folder (reported on stderr), and finishes
// an interrupted archive, which left both X.jsonl and X.jsonl.zst. done is
// true when that was all to do for path this run. With dryRun it only says
// what it would do.
func recoverInterrupted(r fileReport, path string, dryRun bool) (fileReport, bool) {
	dst := path + ".zst"
	if _, err := os.Lstat(dst); err != nil || !strings.HasSuffix(path, ".jsonl") {
		if !dryRun {
			safefile.CleanFolder(filepath.Dir(path))
		}
		return r, false
	}
	if dryRun {
		return r.did(actSkipped, "interrupted archive "+dst+": would be completed or rolled back"), true
	}
	safefile.CleanFolder(filepath.Dir(path))
	completed, err := finishArchive(path, dst)
	switch {
	case err != nil:
		return r.failed(fmt.Errorf("interrupted archive: %w", err)), true
	case completed:
		return r.did(actArchived, "completed an interrupted archive: "+dst), true
	}
	return r.did(actRolledBack, "removed "+dst+", left by an interrupted archive: it does not hold this file's bytes"), true
}

// finishArchive removes path when dst decompresses to exactly its bytes
// (completed is true), and otherwise removes dst, under path's lock.
func finishArchive(path, dst string) (completed bool, err error) {
	edit, err := safefile.Begin(path)
	if err != nil {
		return false, err
	}
	defer edit.Close()
	sum, err := fileSum(path)
	if err != nil {
		return false, err
	}
	if verifyArchive(dst, sum) != nil {
		return false, os.Remove(dst)
	}
	return true, edit.Remove()
}

// fileSum returns the SHA-256 of a file's bytes.
func fileSum(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return h.Sum(nil), nil
}
