package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func unarchiveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "unarchive",
		Usage:     "bring archived sessions back where Pi's /resume lists them (undoes nightly --archive-after)",
		ArgsUsage: "ARCHIVE…",
		Description: `Decompresses each ARCHIVE, X.jsonl.zst (what nightly --archive-after writes)
or X.jsonl.gz, to X.jsonl beside it, with the archive's owner, group and mode,
reads it back to check it, then removes the archive, holding the locks of
both files (a nightly run at that moment, which would take the pair for an
interrupted archive, cannot remove either): Pi's /resume lists X.jsonl again.
pitool ls --all shows the archived sessions of a folder.

Refuses, changing nothing, when ARCHIVE is not a Pi session, not compressed,
not named X.jsonl.zst or X.jsonl.gz, or not a regular file (a symlink: name
the file it points to), and when X.jsonl already exists with other bytes: it
is never overwritten. An X.jsonl that holds exactly the archive's bytes (an
unarchive that was interrupted) is kept and the archive removed. A truncated
archive is not restored: pitool repair -o X.jsonl ARCHIVE keeps every
complete line it holds.

The restored file is new, so nightly --archive-after counts its idle time
from now. Prints each X.jsonl restored; exit 2 when any ARCHIVE failed.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("unarchive takes at least one ARCHIVE")
			}
			failed := 0
			for _, archive := range c.Args().Slice() {
				if err := c.Context.Err(); err != nil {
					return err
				}
				dst, err := unarchive(archive)
				if err != nil {
					e.errorf("%s", fileError(archive, err))
					failed++
					continue
				}
				printLine(e.stdout, "%s", dst)
			}
			if failed > 0 {
				return errReported
			}
			return nil
		},
	}
}

// unarchive restores archive to the plain session it holds and returns that
// file's path. Every write goes through safefile: the new file is written
// atomically, never over an existing one, with the archive's owner and mode.
// The archive is removed under its lock and that of the restored file, so
// that a nightly run, which takes the plain file's lock to resolve what looks
// like an interrupted archive, never removes both.
func unarchive(archive string) (string, error) {
	dst, err := unarchiveTarget(archive)
	if err != nil {
		return "", err
	}
	edit, err := safefile.Begin(archive)
	if err != nil {
		return "", err
	}
	defer edit.Close()
	created := false
	sum, err := existingCopy(archive, dst)
	if errors.Is(err, os.ErrNotExist) {
		sum, err = writePlain(archive, dst)
		created = err == nil
	}
	if err != nil {
		return "", err
	}
	return dst, removeArchive(edit, dst, sum, created)
}

// removeArchive removes the archive once dst, under its lock, holds the bytes
// whose SHA-256 is sum. When the archive stays, a dst this run created goes
// again; a dst that cannot be locked or checked is left, with the archive
// (both hold the session: running unarchive again finishes).
func removeArchive(edit *safefile.Edit, dst string, sum []byte, created bool) error {
	unlock, err := safefile.Lock(dst)
	if err != nil {
		return err
	}
	defer unlock()
	if err := sameBytes(dst, sum); err != nil {
		return err
	}
	err = edit.Remove()
	if _, statErr := os.Lstat(edit.Path); err != nil && statErr == nil && created {
		os.Remove(dst)
	}
	return err
}

// existingCopy handles an X.jsonl that exists already: it returns the
// SHA-256 of its bytes when the archive decompresses to exactly them (an
// unarchive interrupted before it removed the archive), an error wrapping
// os.ErrNotExist when there is none, and an error when it holds other bytes.
func existingCopy(archive, dst string) ([]byte, error) {
	info, err := os.Lstat(dst)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s already exists and is not a regular file: it is never overwritten", dst)
	}
	sum, err := fileSum(dst)
	if err != nil {
		return nil, err
	}
	if err := verifyArchive(archive, sum); errors.Is(err, errArchiveMismatch) {
		return nil, fmt.Errorf("%s already exists and holds other bytes: it is never overwritten", dst)
	} else if err != nil {
		return nil, err
	}
	return sum, nil
}

// unarchiveTarget checks that archive is a regular file named X.jsonl.zst or
// X.jsonl.gz holding a compressed Pi session, and returns X.jsonl.
func unarchiveTarget(archive string) (string, error) {
	info, err := os.Lstat(archive)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", errors.New("not a regular file (a symlink: name the file it points to)")
	}
	dst, ok := plainName(archive)
	if !ok {
		return "", errors.New("not an archive's name: X.jsonl.zst or X.jsonl.gz")
	}
	if err := jsonl.CheckSessionFile(archive); err != nil {
		return "", err
	}
	if !isCompressed(archive) {
		return "", fmt.Errorf("not compressed: rename it to %s instead", dst)
	}
	return dst, nil
}

// plainName is X.jsonl for an archive named X.jsonl.zst or X.jsonl.gz: a
// session's name (sessionfiles.Suffixes) that Pi's /resume does not list.
func plainName(archive string) (string, bool) {
	for _, suf := range sessionfiles.Suffixes {
		if stem, ok := strings.CutSuffix(archive, suf); ok && !sessionfiles.ListedByPi(archive) {
			return stem + ".jsonl", true
		}
	}
	return "", false
}

// writePlain decompresses archive into a new file dst, with the archive's
// owner, group and mode, and returns the SHA-256 of the bytes written. A
// truncated archive writes nothing.
func writePlain(archive, dst string) ([]byte, error) {
	src, err := jsonl.Open(archive, nil)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	h := sha256.New()
	err = safefile.WriteFile(dst, safefile.Options{Like: archive, NoClobber: true}, func(w io.Writer) error {
		if _, err := io.Copy(io.MultiWriter(w, h), src.Reader()); err != nil {
			return fmt.Errorf("read %s: %w", archive, err)
		}
		if src.Truncated() {
			return fmt.Errorf("the archive is truncated (an interrupted write?): 'pitool repair -o %s %s' keeps every complete line", dst, archive)
		}
		return nil
	})
	return h.Sum(nil), err
}

// sameBytes checks that the file path holds the bytes whose SHA-256 is sum.
func sameBytes(path string, sum []byte) error {
	got, err := fileSum(path)
	if err == nil && !bytes.Equal(got, sum) {
		err = fmt.Errorf("%s: reads back different bytes from those written", path)
	}
	return err
}
