package archive

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

	"github.com/klauspost/compress/zstd"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// Suffix is what an archive's name adds to the session file's.
const Suffix = ".zst"

// ErrMismatch means an archive does not decompress to the original bytes.
var ErrMismatch = errors.New("archive does not decompress to the original bytes")

// Archivable reports whether path is a plain session file (not yet
// compressed) whose last line is whole: a regular file itself, not a
// symlink (archiving through one would leave it dangling). It is opened
// without following a link or blocking on a FIFO.
func Archivable(path string) bool {
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

// IsCompressed reports whether path is a regular file holding a compressed
// stream (gzip or zstd, by its magic bytes).
func IsCompressed(path string) bool {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return compressed(f)
}

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

// Archive compresses path to path+Suffix (with path's owner, group and mode,
// and its modification time, as gzip keeps it; read back to check it), then
// removes path, all under path's lock and only if path did not change
// meanwhile. path itself must be the file (a symlink is refused), and
// everything after Begin goes through the folder it opened: the archive is
// created there, never over anything nor through a link, from the bytes
// Begin stamped, and only the inode Begin stamped is removed. The archive is
// removed again whenever path stays. It returns the archive's path.
func Archive(path string) (string, error) {
	dst := path + Suffix
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

// verifyBeside decompresses the file name in edit's folder (opened without
// following a link or blocking on a FIFO) and compares the SHA-256 of its
// bytes with want.
func verifyBeside(edit *safefile.Edit, name string, want []byte) error {
	f, err := edit.OpenBeside(name)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := openSource(f)
	if err != nil {
		return err
	}
	defer src.Close()
	got, err := sumOf(src.Reader(), f.Name())
	if err == nil && !bytes.Equal(got, want) {
		err = fmt.Errorf("%s: %w", f.Name(), ErrMismatch)
	}
	return err
}

// Interrupted reports whether path, a X.jsonl, has an archive beside it: a
// run killed between writing the archive and removing path left both.
func Interrupted(path string) bool {
	if !strings.HasSuffix(path, ".jsonl") {
		return false
	}
	_, err := os.Lstat(path + Suffix)
	return err == nil
}

// AwaitsPlain reports whether path is the archive X.jsonl.zst of an
// interrupted archive, whose X.jsonl still exists: Finish, run on X.jsonl,
// resolves the pair. It returns X.jsonl.
func AwaitsPlain(path string) (string, bool) {
	base, ok := strings.CutSuffix(path, Suffix)
	if !ok || !strings.HasSuffix(base, ".jsonl") {
		return "", false
	}
	_, err := os.Lstat(base)
	return base, err == nil
}

// Finish resolves an interrupted archive of path: it removes path when its
// archive decompresses to exactly its bytes (completed is true), and
// otherwise removes the archive, under path's lock. As in Archive, path
// itself must be the file and the archive is read and removed through the
// folder Begin opened (a symlink there is removed, never followed).
func Finish(path string) (completed bool, err error) {
	edit, err := safefile.BeginNoFollow(path)
	if err != nil {
		return false, err
	}
	defer edit.Close()
	sum, err := sumOf(edit.Snapshot(), path)
	if err != nil {
		return false, err
	}
	name := filepath.Base(path + Suffix)
	if verifyBeside(edit, name, sum) != nil {
		return false, edit.RemoveBeside(name)
	}
	return true, edit.Remove()
}

// sumOf returns the SHA-256 of what r reads; path names it in messages.
func sumOf(r io.Reader, path string) ([]byte, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return h.Sum(nil), nil
}
