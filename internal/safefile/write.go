package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrNotRegular means an in-place command was given something that is not a
// regular file (a device, a FIFO, a folder).
var ErrNotRegular = errors.New("not a regular file")

// maxLinks is how many symbolic links resolve follows before giving up.
const maxLinks = 40

// Options controls WriteFile.
type Options struct {
	// Like, when set, gives a new file the owner, group and mode of this file
	// (an archive gets those of the session it compresses).
	Like string
	// NoClobber refuses to write over an existing file.
	NoClobber bool
}

// WriteFile writes what write produces to path as the package doc says: the
// target of a symlink, directly into a device or FIFO, or atomically (temp
// file, fsync, rename, fsync of the folder) for a regular file or a new path.
func WriteFile(path string, opts Options, write func(io.Writer) error) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if fd, ok := fdOf(target); ok {
		return writeDescriptor(fd, target, write)
	}
	info, err := os.Stat(target)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case err == nil && !info.Mode().IsRegular():
		return writeDirect(target, 0, write)
	case err == nil && opts.NoClobber:
		return fmt.Errorf("%s: %w", path, os.ErrExist)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	own := newOwner(filepath.Dir(target))
	if opts.Like != "" {
		like, err := os.Stat(opts.Like)
		if err != nil {
			return err
		}
		own = ownerOf(like)
	} else if err == nil {
		own = ownerOf(info)
	}
	return writeAtomic(target, own, opts.NoClobber, write)
}

// fdOf returns the descriptor a path names when it names one of the
// process's own (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N). Such
// a path is written through, never resolved: its link target may be a pipe,
// not a path.
func fdOf(path string) (int, bool) {
	p := filepath.Clean(path)
	switch p {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, ok := strings.CutPrefix(p, dir); ok {
			fd, err := strconv.Atoi(n)
			return fd, err == nil && fd >= 0
		}
	}
	return 0, false
}

// writeDescriptor writes into a descriptor the process already holds,
// through a duplicate, so that a pipe or terminal inherited from a shell run
// by another user is written without opening it again by name (which the
// kernel may refuse: the pipe belongs to that user). A descriptor that is not
// open is opened by name instead.
func writeDescriptor(fd int, path string, write func(io.Writer) error) error {
	dup, err := unix.Dup(fd)
	if err != nil {
		return writeDirect(path, os.O_APPEND, write)
	}
	f := os.NewFile(uintptr(dup), path)
	return writeInto(f, path, write)
}

// writeDirect opens an existing non-regular file for writing and writes into it.
func writeDirect(path string, flag int, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|flag, 0)
	if err != nil {
		return err
	}
	return writeInto(f, path, write)
}

// writeInto writes what write produces into f, buffered, and closes f.
func writeInto(f *os.File, path string, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 64<<10)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", path, cerr)
	}
	return err
}

// writeAtomic writes a temporary file beside target, gives it own, syncs it
// and renames it over target (or, with noClobber, links it there).
func writeAtomic(target string, own owner, noClobber bool, write func(io.Writer) error) (err error) {
	t, err := newTemp(target)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			t.discard()
		}
	}()
	if err = writeBuffered(t, write); err != nil {
		return err
	}
	if err = own.apply(t.f); err != nil {
		return err
	}
	if err = t.sync(); err != nil {
		return err
	}
	if err = install(t.f.Name(), target, noClobber); err != nil {
		return err
	}
	if err = t.close(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(target))
}

// install puts the finished temporary file at target.
func install(tmp, target string, noClobber bool) error {
	if !noClobber {
		if err := os.Rename(tmp, target); err != nil {
			return fmt.Errorf("rename into %s: %w", target, err)
		}
		return nil
	}
	if err := os.Link(tmp, target); err != nil {
		return fmt.Errorf("create %s: %w", target, err)
	}
	return os.Remove(tmp)
}

func writeBuffered(t *temp, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(t.w, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", t.f.Name(), err)
	}
	return nil
}

// resolve follows symbolic links at the end of path; a dangling link
// resolves to the path it points at, which is then created. It stops at a
// descriptor path, whose link may name a pipe rather than a file.
func resolve(path string) (string, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if err != nil || info.Mode()&os.ModeSymlink == 0 || isFd(path) {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// isFd reports whether path names one of the process's descriptors.
func isFd(path string) bool {
	_, ok := fdOf(path)
	return ok
}
