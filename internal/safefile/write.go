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
	// NoClobber refuses to write over anything at the path: a file, or a
	// symlink (never followed, even dangling).
	NoClobber bool
	// Check, when set, is given the regular file at the path before any
	// write (opened read-only, never through a link, never blocking; info is
	// its fstat); an error refuses the write. A -o that must not replace an
	// input or another Pi session says so here.
	Check func(f *os.File, info os.FileInfo) error
}

// WriteFile writes what write produces to path as the package doc says: the
// target of a symlink, directly into a device or FIFO, or atomically (temp
// file, fsync, rename, fsync of the folder) for a regular file or a new path.
// The path is resolved once; its folder is then opened and everything after
// goes through that descriptor (OpenTarget, then Target.Write).
func WriteFile(path string, opts Options, write func(io.Writer) error) error {
	t, err := OpenTarget(path, opts)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.Write(write)
}

// ownerFor is the owner, group and mode a written file gets: those of the
// file like names, else those of the file it replaces (info, nil for a new
// file), else a new file's in d (see newOwner).
func ownerFor(d *dir, info os.FileInfo, like string) (owner, error) {
	switch {
	case like != "":
		likeInfo, err := os.Stat(like)
		if err != nil {
			return owner{}, err
		}
		return ownerOf(likeInfo), nil
	case info != nil:
		return ownerOf(info), nil
	}
	dirInfo, err := d.f.Stat()
	if err != nil {
		return owner{}, err
	}
	return newOwner(dirInfo), nil
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
// kernel may refuse: the pipe belongs to that user).
func writeDescriptor(fd int, path string, write func(io.Writer) error) error {
	dup, err := unix.Dup(fd)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	return writeInto(os.NewFile(uintptr(dup), path), path, write)
}

// writeDirect writes into name in d, which lstat showed (info) to be a
// device, FIFO or socket, and which is never replaced. It is opened without
// following a link and with O_NONBLOCK first (a FIFO without a reader is
// then opened again, blocking until one comes, as a FIFO output is meant
// to), and written only if the descriptor is the very file info was.
func writeDirect(d *dir, name string, info os.FileInfo, write func(io.Writer) error) error {
	path := d.join(name)
	flag := unix.O_WRONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fd, err := unix.Openat(d.fd(), name, flag|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.ENXIO) {
		fd, err = unix.Openat(d.fd(), name, flag, 0)
	}
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	now, err := f.Stat()
	if err == nil && (!os.SameFile(now, info) || now.Mode().IsRegular()) {
		err = fmt.Errorf("%s: replaced while it was opened: %w", path, ErrChanged)
	}
	if err == nil {
		err = clearFlag(fd, path, unix.O_NONBLOCK)
	}
	if err != nil {
		f.Close()
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

// writeAtomic writes a temporary file in d, gives it own, syncs it, calls
// ready (when set; it may refuse) and renames it over name (or, with noClobber,
// links it there, which fails when anything is there, a dangling symlink
// too).
func writeAtomic(d *dir, name string, own owner, noClobber bool, ready func() error, write func(io.Writer) error) (err error) {
	t, err := newTemp(d, name)
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
	if ready != nil {
		if err = ready(); err != nil {
			return err
		}
	}
	if err = install(t, name, noClobber); err != nil {
		return err
	}
	if err = t.close(); err != nil {
		return err
	}
	return d.sync()
}

// install puts the finished temporary file at name in its folder. Its
// errors name the file, never the temporary one.
func install(t *temp, name string, noClobber bool) error {
	if !noClobber {
		if err := t.d.rename(t.name, name); err != nil {
			return &os.PathError{Op: "replace", Path: t.d.join(name), Err: errors.Unwrap(err)}
		}
		return nil
	}
	if err := t.d.link(t.name, name); err != nil {
		return &os.PathError{Op: "create", Path: t.d.join(name), Err: errors.Unwrap(err)}
	}
	return t.d.unlink(t.name)
}

func writeBuffered(t *temp, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(t.w, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush() // its error names the file (see temp)
}

// resolve follows symbolic links at the end of path, each one only as the
// kernel's protected_symlinks rule allows (see mayFollow), a dangling one
// too, as the kernel's open(O_CREAT) does: WriteFile then creates its
// target as a new file. It stops at a descriptor path, whose link may name
// a pipe rather than a file.
func resolve(path string) (string, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if err != nil || info.Mode()&os.ModeSymlink == 0 || isFd(path) {
			return path, nil
		}
		if err := mayFollow(path, info); err != nil {
			return "", err
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

// mayFollow applies the kernel's fs.protected_symlinks rule to the link
// (info is its lstat), which pitool follows by hand: a link in a sticky,
// world-writable folder (/tmp) is followed only when its owner is the
// caller (euid) or the folder's owner. Otherwise another user could plant
// it and have root write wherever it points.
func mayFollow(link string, info os.FileInfo) error {
	dirInfo, err := os.Stat(filepath.Dir(link))
	if err != nil {
		return err
	}
	if dirInfo.Mode()&os.ModeSticky == 0 || dirInfo.Mode().Perm()&0o002 == 0 {
		return nil
	}
	uid := ownerOf(info).uid
	if uid == os.Geteuid() || uid == ownerOf(dirInfo).uid {
		return nil
	}
	return fmt.Errorf("%s: symlink in a sticky world-writable folder owned by uid %d: refusing to follow it (as the kernel's protected_symlinks does)", link, uid)
}

// isFd reports whether path names one of the process's descriptors.
func isFd(path string) bool {
	_, ok := fdOf(path)
	return ok
}
