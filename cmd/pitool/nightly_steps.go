package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
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

// archivable reports whether path is a plain session file (not yet compressed).
func archivable(path string) bool {
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

// archive compresses path to path+".zst" (written atomically and read back to
// check it), then removes path, all under path's lock and only if path did
// not change meanwhile.
func archive(path string) (string, error) {
	dst := path + ".zst"
	if _, err := os.Lstat(dst); err == nil {
		return "", fmt.Errorf("%s: archive %s already exists", path, dst)
	}
	stamp, err := safefile.StatStamp(path)
	if err != nil {
		return "", err
	}
	unlock, err := safefile.Lock(path)
	if err != nil {
		return "", err
	}
	defer unlock()
	sum, err := writeZstd(path, dst)
	if err != nil {
		return "", err
	}
	if err := keepMode(path, dst); err != nil {
		os.Remove(dst)
		return "", err
	}
	if err := verifyArchive(dst, sum); err != nil {
		os.Remove(dst)
		return "", err
	}
	if err := stamp.Check(path); err != nil {
		os.Remove(dst)
		return "", err
	}
	return dst, os.Remove(path)
}

// keepMode gives dst the permissions of src.
func keepMode(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	return os.Chmod(dst, info.Mode().Perm())
}

// writeZstd compresses src into a new file dst and returns the SHA-256 of src.
func writeZstd(src, dst string) ([]byte, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	h := sha256.New()
	err = safefile.Create(dst, func(w io.Writer) error {
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
