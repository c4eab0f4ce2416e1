package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// beforeRemove runs right before Remove takes the file's name aside; tests
// use it to swap something in for the file at that moment.
var beforeRemove = func() {}

// Remove removes the file (an archive replaced it), after checking that it
// did not change since Begin. It removes only the inode Begin stamped: the
// name is renamed aside (within the folder's descriptor) and unlinked only
// if it holds that inode; anything else swapped in is renamed back and
// ErrChanged returned. Bytes appended during the removal put the old file
// back (never over a new one) and return ErrChanged.
func (e *Edit) Remove() error {
	now, err := e.recheck()
	if err == nil && (now.Size != e.stamp.Size || !now.ModTime.Equal(e.stamp.ModTime)) {
		err = fmt.Errorf("%s: %w", e.Path, ErrChanged)
	}
	if err != nil {
		return err
	}
	beforeRemove()
	if err := e.unlinkStamped(); err != nil {
		return err
	}
	if err := e.dir.sync(); err != nil {
		return err
	}
	info, err := e.old.Stat()
	if err != nil || info.Size() == e.stamp.Size {
		return err
	}
	err = writeAtomic(e.dir, e.name, e.own, true, nil, func(w io.Writer) error {
		_, err := io.Copy(w, io.NewSectionReader(e.old, 0, info.Size()))
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: appended to while it was removed, and could not be put back: %w", e.Path, err)
	}
	return fmt.Errorf("%s: appended to while it was removed; put back: %w", e.Path, ErrChanged)
}

// unlinkStamped renames the file's name aside to a temporary name, checks
// that what it took is the stamped inode, and unlinks it; anything else is
// renamed back (never over what came at the name meanwhile).
func (e *Edit) unlinkStamped() error {
	aside := tempName(e.name)
	if err := e.dir.renameNoReplace(e.name, aside); err != nil {
		return err
	}
	info, err := e.dir.lstat(aside)
	if err == nil && stampOf(info).sameFile(e.stamp) {
		if err = e.dir.unlink(aside); err == nil {
			return nil
		}
	} else {
		err = fmt.Errorf("%s: replaced by another file, left as it is: %w", e.Path, ErrChanged)
	}
	if backErr := e.dir.renameNoReplace(aside, e.name); backErr != nil {
		return fmt.Errorf("%w; and what was taken aside stays at %s: %w", err, e.dir.join(aside), backErr)
	}
	return err
}

// Present reports whether the file's name, in the folder Begin opened,
// still holds something (after Remove: whether it failed before the
// removal, or put the file back).
func (e *Edit) Present() bool {
	_, err := e.dir.lstat(e.name)
	return err == nil
}

// CreateBeside writes a new file name (a name, not a path) in the folder
// Begin opened, atomically and with the owner, group and mode of the file
// Begin stamped. It never writes over anything at name, nor through it: a
// file or symlink there, even a dangling one, is an error wrapping
// os.ErrExist.
func (e *Edit) CreateBeside(name string, write func(io.Writer) error) error {
	if err := checkName(name); err != nil {
		return err
	}
	if _, err := e.dir.lstat(name); !errors.Is(err, os.ErrNotExist) {
		if err == nil {
			err = os.ErrExist
		}
		return fmt.Errorf("%s: %w", e.dir.join(name), err)
	}
	return writeAtomic(e.dir, name, e.own, true, nil, write)
}

// OpenBeside opens name (a name, not a path) in the folder Begin opened,
// for reading: a regular file, never through a symlink, never blocking on
// a FIFO (ErrNotRegular otherwise).
func (e *Edit) OpenBeside(name string) (*os.File, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	return e.dir.openRegular(name, unix.O_RDONLY)
}

// RemoveBeside removes name (a name, not a path: a file CreateBeside made
// that must go again) from the folder Begin opened; a symlink there is
// removed, never followed.
func (e *Edit) RemoveBeside(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := e.dir.unlink(name); err != nil {
		return err
	}
	return e.dir.sync()
}

// checkName refuses a name that is not one file's name in a folder.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return fmt.Errorf("%q is not a file name", name)
	}
	return nil
}
