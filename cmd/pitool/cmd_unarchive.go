package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
				archive, err := sessionArg(c, archive)
				if err != nil {
					e.errorf("%s", describe(err))
					failed++
					continue
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
// file's path. The archive is begun as the file itself (a symlink swapped in
// is refused), read through the descriptor Begin keeps, and the plain file
// is made, checked and if need be removed again in the folder Begin opened:
// atomically, never over or through anything already there, with the
// archive's owner and mode. The archive is removed under its lock and that
// of the restored file, so that a nightly run, which takes the plain file's
// lock to resolve what looks like an interrupted archive, never removes both.
func unarchive(archive string) (string, error) {
	dst, err := unarchiveTarget(archive)
	if err != nil {
		return "", err
	}
	edit, err := safefile.BeginNoFollow(archive)
	if err != nil {
		return "", err
	}
	defer edit.Close()
	created := false
	sum, err := existingCopy(edit, dst)
	if errors.Is(err, os.ErrNotExist) {
		sum, err = writePlain(edit, dst)
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
	if err := sameBytes(edit, dst, sum); err != nil {
		return err
	}
	err = edit.Remove()
	if err != nil && edit.Present() && created {
		edit.RemoveBeside(filepath.Base(dst))
	}
	return err
}

// existingCopy handles an X.jsonl (dst) beside the archive that exists already:
// it returns the SHA-256 of its bytes when the archive decompresses to
// exactly them (an unarchive interrupted before it removed the archive), an
// error wrapping os.ErrNotExist when there is none, and an error when it
// holds other bytes or is not a regular file.
func existingCopy(edit *safefile.Edit, dst string) ([]byte, error) {
	sum, err := sumBeside(edit, dst)
	switch {
	case errors.Is(err, safefile.ErrNotRegular):
		return nil, fmt.Errorf("%s already exists and is not a regular file: it is never overwritten", dst)
	case err != nil:
		return nil, err
	}
	src, err := jsonl.OpenSection(edit.Path, edit.Snapshot())
	if err != nil {
		return nil, err
	}
	defer src.Close()
	got, err := sumOf(src.Reader(), edit.Path)
	switch {
	case err != nil:
		return nil, err
	case !bytes.Equal(got, sum):
		return nil, fmt.Errorf("%s already exists and holds other bytes: it is never overwritten", dst)
	}
	return sum, nil
}

// sumBeside returns the SHA-256 of the regular file dst, opened by its
// name in edit's folder.
func sumBeside(edit *safefile.Edit, dst string) ([]byte, error) {
	f, err := edit.OpenBeside(filepath.Base(dst))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sumOf(f, dst)
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

// writePlain decompresses the archive edit holds into a new file dst
// beside it, with the archive's owner, group and mode, and returns the
// SHA-256 of the bytes written. A truncated archive writes nothing.
func writePlain(edit *safefile.Edit, dst string) ([]byte, error) {
	src, err := jsonl.OpenSection(edit.Path, edit.Snapshot())
	if err != nil {
		return nil, err
	}
	defer src.Close()
	h := sha256.New()
	err = edit.CreateBeside(filepath.Base(dst), func(w io.Writer) error {
		if _, err := io.Copy(io.MultiWriter(w, h), src.Reader()); err != nil {
			return fmt.Errorf("read %s: %w", edit.Path, err)
		}
		if src.Truncated() {
			return fmt.Errorf("the archive is truncated (an interrupted write?): 'pitool repair -o %s %s' keeps every complete line", dst, edit.Path)
		}
		return nil
	})
	return h.Sum(nil), err
}

// sameBytes checks that the file dst beside the archive holds the bytes
// whose SHA-256 is sum.
func sameBytes(edit *safefile.Edit, dst string, sum []byte) error {
	got, err := sumBeside(edit, dst)
	if err == nil && !bytes.Equal(got, sum) {
		err = fmt.Errorf("%s: reads back different bytes from those written", dst)
	}
	return err
}
