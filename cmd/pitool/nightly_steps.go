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

// endsInNewline reports whether the open file f is empty or ends in '\n'.
func endsInNewline(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err == nil
	}
	var b [1]byte
	_, err = f.ReadAt(b[:], info.Size()-1)
	return err == nil && b[0] == '\n'
}

// idleFor reports how long ago path was modified, other than by pitool
// itself (see safefile.LastChange): nightly's own writes of the last run
// are not a live session's.
func idleFor(path string) (time.Duration, error) {
	changed, err := safefile.LastChange(path)
	if err != nil {
		return 0, err
	}
	return time.Since(changed), nil
}

// archivable reports whether path is a plain session file (not yet
// compressed) whose last line is whole: a regular file itself, not a
// symlink (archiving through one would leave it dangling). It is opened
// without following a link or blocking on a FIFO.
func archivable(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return endsInNewline(f) && !compressed(f)
}

// isCompressed reports whether path is a regular file holding a compressed
// stream (gzip or zstd, by its magic bytes).
func isCompressed(path string) bool {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return compressed(f)
}

// compressed reports whether the open file f holds a compressed stream.
func compressed(f *os.File) bool {
	src, err := openSource(f)
	if err != nil {
		return false
	}
	defer src.Close()
	return src.Compression != jsonl.Plain
}

// openSource reads the open file f as a session file (its bytes as they
// are now), never opening it again by name.
func openSource(f *os.File) (*jsonl.Source, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return jsonl.OpenSection(f.Name(), io.NewSectionReader(f, 0, info.Size()))
}

// archive compresses path to path+".zst" (with path's owner, group and
// mode, and read back to check it), then removes path, all under path's lock
// and only if path did not change meanwhile. path itself must be the file
// (a symlink is refused), and everything after Begin goes through the
// folder it opened: the archive is created there, never over anything nor
// through a link, from the bytes Begin stamped, and only the inode Begin
// stamped is removed. The archive is removed again whenever path stays.
func archive(path string) (string, error) {
	dst := path + ".zst"
	edit, err := safefile.BeginNoFollow(path)
	if err != nil {
		return "", err
	}
	defer edit.Close()
	name := filepath.Base(dst)
	sum, err := writeZstd(edit, name)
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s: archive %s already exists", path, dst)
	}
	created := err == nil
	if err == nil {
		err = verifyBeside(edit, name, sum)
	}
	if err == nil {
		err = edit.KeepTimeBeside(name)
	}
	if err == nil {
		err = edit.Remove()
	}
	if err != nil && created && edit.Present() {
		edit.RemoveBeside(name)
	}
	return dst, err
}

// writeZstd compresses the bytes edit stamped into a new file name beside
// it and returns their SHA-256.
func writeZstd(edit *safefile.Edit, name string) ([]byte, error) {
	h := sha256.New()
	err := edit.CreateBeside(name, func(w io.Writer) error {
		enc, err := zstd.NewWriter(w)
		if err != nil {
			return err
		}
		if _, err := io.Copy(enc, io.TeeReader(edit.Snapshot(), h)); err != nil {
			enc.Close()
			return fmt.Errorf("compress %s: %w", edit.Path, err)
		}
		return enc.Close()
	})
	return h.Sum(nil), err
}

var errArchiveMismatch = errors.New("archive does not decompress to the original bytes")

// verifyArchive reads dst back through pitool's reader and compares its
// SHA-256 (dst is opened without following a link or blocking on a FIFO).
func verifyArchive(dst string, want []byte) error {
	f, err := safefile.OpenRegular(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	return verifyOpen(f, want)
}

// verifyBeside is verifyArchive for the file name in edit's folder.
func verifyBeside(edit *safefile.Edit, name string, want []byte) error {
	f, err := edit.OpenBeside(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return verifyOpen(f, want)
}

// verifyOpen decompresses the open file f and compares the SHA-256 of its bytes.
func verifyOpen(f *os.File, want []byte) error {
	src, err := openSource(f)
	if err != nil {
		return err
	}
	defer src.Close()
	got, err := sumOf(src.Reader(), f.Name())
	if err == nil && !bytes.Equal(got, want) {
		err = fmt.Errorf("%s: %w", f.Name(), errArchiveMismatch)
	}
	return err
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
// (completed is true), and otherwise removes dst, under path's lock. As in
// archive, path itself must be the file and dst is read and removed
// through the folder Begin opened (a symlink at dst is removed, never
// followed).
func finishArchive(path, dst string) (completed bool, err error) {
	edit, err := safefile.BeginNoFollow(path)
	if err != nil {
		return false, err
	}
	defer edit.Close()
	sum, err := sumOf(edit.Snapshot(), path)
	if err != nil {
		return false, err
	}
	name := filepath.Base(dst)
	if verifyBeside(edit, name, sum) != nil {
		return false, edit.RemoveBeside(name)
	}
	return true, edit.Remove()
}

// fileSum returns the SHA-256 of a file's bytes; path must be a regular
// file, not a symlink (it is never followed, and a FIFO never blocks).
func fileSum(path string) ([]byte, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sumOf(f, path)
}

// sumOf returns the SHA-256 of what r reads; path names it in messages.
func sumOf(r io.Reader, path string) ([]byte, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return h.Sum(nil), nil
}
