package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrNotWritable means an output's folder does not let this process create
// a file in it (its permissions, or a read-only file system).
var ErrNotWritable = errors.New("the folder is not writable")

// Target is an output's location, opened and checked before any work
// starts (OpenTarget): its folder is open, and what is at the name was
// looked at through a descriptor. Write then writes it through that folder
// handle, as WriteFile does, so that a command refuses a missing or
// read-only folder, a folder given as a file, or a file it must not replace
// before it has read anything, and its errors name the user's path.
type Target struct {
	path string      // as the caller named it
	opts Options     // how it is written
	fd   int         // a descriptor of the process's own (/dev/stdout), or -1
	d    *dir        // the folder, nil for a descriptor
	name string      // the file's name in d
	info os.FileInfo // what was at name when it was opened; nil for nothing
	new  bool        // created as a new file, never over one (a dangling link's target)
}

// OpenTarget resolves path once (see WriteFile), opens its folder and looks
// at what is there: a folder is refused, a regular file is given to
// opts.Check (opened read-only, without following a link or blocking), and a
// folder this process cannot create a file in is ErrNotWritable. Nothing is
// written; Close releases the folder.
func OpenTarget(path string, opts Options) (*Target, error) {
	target := path
	if !opts.NoClobber {
		var err error
		if target, err = resolve(path); err != nil {
			return nil, err
		}
	}
	if fd, ok := fdOf(target); ok {
		return &Target{path: target, opts: opts, fd: fd}, nil
	}
	d, err := openDirFor(path, filepath.Dir(target))
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	t := &Target{path: path, opts: opts, fd: -1, d: d, name: filepath.Base(target)}
	if err := t.look(target != path); err != nil {
		d.Close()
		return nil, err
	}
	return t, nil
}

// look finds out what is at the target's name and checks it (see OpenTarget).
func (t *Target) look(viaLink bool) error {
	info, err := t.d.lstat(t.name)
	switch {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	case err != nil:
		t.new = viaLink // the new target of a dangling link is created, never put over a file
		return t.checkWritable()
	case t.opts.NoClobber:
		return fmt.Errorf("%s: %w", t.path, os.ErrExist)
	case info.IsDir():
		return fmt.Errorf("%s: is a directory", t.path)
	case info.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s: replaced by a symlink while it was resolved: %w", t.d.join(t.name), ErrChanged)
	}
	t.info = info
	if !info.Mode().IsRegular() {
		return nil // a device or FIFO is written directly, never replaced
	}
	if err := t.checkWritable(); err != nil {
		return err
	}
	return t.check()
}

// checkWritable refuses a folder this process cannot create a file in.
func (t *Target) checkWritable() error {
	if err := writable(t.d); err != nil {
		return fmt.Errorf("cannot write %s: %w", t.path, err)
	}
	return nil
}

// writable refuses a folder this process cannot create a file in
// (ErrNotWritable).
func writable(d *dir) error {
	if err := unix.Faccessat(d.fd(), ".", unix.W_OK|unix.X_OK, unix.AT_EACCESS); err != nil {
		return fmt.Errorf("%w (%s: %w)", ErrNotWritable, d.path, err)
	}
	return nil
}

// CheckFolder refuses, before any work writes into it, a folder that is
// missing, is not a folder, or that this process cannot create a file in
// (ErrNotWritable): for an output that is a folder (redact -o DIR).
func CheckFolder(path string) error {
	d, err := openDir(path)
	if err != nil {
		return fmt.Errorf("cannot write into %s: %w", path, err)
	}
	defer d.Close()
	if err := writable(d); err != nil {
		return fmt.Errorf("cannot write into %s: %w", path, err)
	}
	return nil
}

// check gives the regular file at the name to opts.Check, through a
// descriptor that is the very file lstat saw.
func (t *Target) check() error {
	if t.opts.Check == nil {
		return nil
	}
	f, err := t.d.openRegular(t.name, unix.O_RDONLY)
	if err != nil {
		return err
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(now, t.info) {
		return fmt.Errorf("%s: replaced while it was opened: %w", t.path, ErrChanged)
	}
	return t.opts.Check(f, now)
}

// Write writes what write produces to the target as WriteFile does. A
// regular file that was there is replaced only if the name still holds it:
// the one Check approved, never another swapped in since.
func (t *Target) Write(write func(io.Writer) error) error {
	switch {
	case t.d == nil:
		return writeDescriptor(t.fd, t.path, write)
	case t.info != nil && !t.info.Mode().IsRegular():
		return writeDirect(t.d, t.name, t.info, write)
	}
	own, err := ownerFor(t.d, t.info, t.opts.Like)
	if err != nil {
		return err
	}
	return writeAtomic(t.d, t.name, own, t.opts.NoClobber || t.new, t.stillThere, write)
}

// stillThere checks, right before the rename, that the name holds what
// OpenTarget saw (ErrChanged otherwise): the file Check approved, or
// nothing. A new name is not checked here: noClobber's link refuses
// anything that appeared, and without it a file that appeared is replaced,
// as WriteFile always did.
func (t *Target) stillThere() error {
	if t.info == nil {
		return nil
	}
	now, err := t.d.lstat(t.name)
	if err != nil || !os.SameFile(now, t.info) {
		return fmt.Errorf("%s: replaced while it was written: %w", t.path, ErrChanged)
	}
	return nil
}

// Close releases the target's folder.
func (t *Target) Close() error {
	if t.d == nil {
		return nil
	}
	return t.d.Close()
}
