package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// dir is a folder opened once: every name in it is then looked up through
// this descriptor (openat, fstatat, renameat, linkat, unlinkat), never
// through the folder's path again, so that a folder or link swapped in
// along the path afterwards changes nothing.
type dir struct {
	f    *os.File
	path string
}

// openDir opens the folder path (following links along the way: this is
// where a name is resolved, once).
func openDir(path string) (*dir, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open folder", Path: path, Err: err}
	}
	return &dir{f: os.NewFile(uintptr(fd), path), path: path}, nil
}

// openSub opens the folder name in d, never through a symlink.
func (d *dir) openSub(name string) (*dir, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open folder", Path: d.join(name), Err: err}
	}
	return &dir{f: os.NewFile(uintptr(fd), d.join(name)), path: d.join(name)}, nil
}

func (d *dir) fd() int { return int(d.f.Fd()) }

// Close closes the folder's descriptor.
func (d *dir) Close() error { return d.f.Close() }

// join is the path of name in d, for messages.
func (d *dir) join(name string) string { return filepath.Join(d.path, name) }

// openRegular opens name in d with flag, never through a symlink
// (O_NOFOLLOW) and never blocking on a FIFO (O_NONBLOCK); see openRegularAt.
func (d *dir) openRegular(name string, flag int) (*os.File, error) {
	return openRegularAt(d.fd(), name, d.join(name), flag|unix.O_NOFOLLOW)
}

// openRegularAt opens name relative to dirfd with O_NONBLOCK, so that a
// FIFO swapped in for a file never blocks, checks through the descriptor
// that it is a regular file (ErrNotRegular otherwise; a symlink refused by
// O_NOFOLLOW too), then clears O_NONBLOCK. path names it in messages.
func openRegularAt(dirfd int, name, path string, flag int) (*os.File, error) {
	fd, err := unix.Openat(dirfd, name, flag|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) && flag&unix.O_NOFOLLOW != 0 {
		return nil, fmt.Errorf("%s: a symlink: %w", path, ErrNotRegular)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err = unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		err = fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if err == nil {
		err = clearFlag(fd, path, unix.O_NONBLOCK)
	}
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// OpenRegular opens path for reading when it is a regular file. A symlink
// at its last component, a FIFO, a device or a folder is refused with
// ErrNotRegular, and never blocks: the file is opened with O_NOFOLLOW and
// O_NONBLOCK and checked through its descriptor before anything is read.
func OpenRegular(path string) (*os.File, error) {
	return openRegularAt(unix.AT_FDCWD, path, path, unix.O_RDONLY|unix.O_NOFOLLOW)
}

// clearFlag clears a file status flag (O_NONBLOCK, O_APPEND) of fd, the
// descriptor of path.
func clearFlag(fd int, path string, flag int) error {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(uintptr(fd), unix.F_SETFL, flags&^flag)
	}
	if err != nil {
		return fmt.Errorf("clear the flags of %s: %w", path, err)
	}
	return nil
}

// lstat returns what name in d is, without following a symlink (it is
// fstat of an O_PATH descriptor, which opens nothing: a FIFO or device is
// not opened, a symlink is the link).
func (d *dir) lstat(name string) (os.FileInfo, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "lstat", Path: d.join(name), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.join(name))
	defer f.Close()
	return f.Stat()
}

// holds reports whether name in d is the file f (same device and inode).
func (d *dir) holds(name string, f *os.File) bool {
	a, errA := f.Stat()
	b, errB := d.lstat(name)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// rename renames from over to, both in d; a symlink is renamed, never followed.
func (d *dir) rename(from, to string) error {
	if err := unix.Renameat(d.fd(), from, d.fd(), to); err != nil {
		return &os.LinkError{Op: "rename", Old: d.join(from), New: d.join(to), Err: err}
	}
	return nil
}

// renameNoReplace renames from to to, both in d, failing (EEXIST) when
// anything is at to.
func (d *dir) renameNoReplace(from, to string) error {
	if err := unix.Renameat2(d.fd(), from, d.fd(), to, unix.RENAME_NOREPLACE); err != nil {
		return &os.LinkError{Op: "rename", Old: d.join(from), New: d.join(to), Err: err}
	}
	return nil
}

// link makes to a hard link to from, both in d, never following a symlink
// at from and failing (EEXIST) when anything is at to.
func (d *dir) link(from, to string) error {
	if err := unix.Linkat(d.fd(), from, d.fd(), to, 0); err != nil {
		return &os.LinkError{Op: "link", Old: d.join(from), New: d.join(to), Err: err}
	}
	return nil
}

// unlink removes the name (a file or a link, never what a link points to).
func (d *dir) unlink(name string) error {
	if err := unix.Unlinkat(d.fd(), name, 0); err != nil {
		return &os.PathError{Op: "remove", Path: d.join(name), Err: err}
	}
	return nil
}

// sync syncs the folder, so that a rename, link or removal in it lasts.
func (d *dir) sync() error {
	if err := d.f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync folder %s: %w", d.path, err)
	}
	return nil
}
