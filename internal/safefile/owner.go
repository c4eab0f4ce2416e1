package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// newFileMode is the mode of every new file pitool writes: sessions hold
// private conversations.
const newFileMode = 0o600

// owner is the owner, group and mode a written file gets.
type owner struct {
	uid, gid int
	mode     os.FileMode
}

// ownerOf returns the owner, group and mode of an existing file.
func ownerOf(info os.FileInfo) owner {
	o := owner{uid: -1, gid: -1, mode: info.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		o.uid, o.gid = int(st.Uid), int(st.Gid)
	}
	return o
}

// newOwner is what a new file in the folder dirInfo describes gets: mode
// 0600 and, when pitool runs as root in a folder someone else owns, that
// folder's owner and group.
func newOwner(dirInfo os.FileInfo) owner {
	o := owner{uid: -1, gid: -1, mode: newFileMode}
	if d := ownerOf(dirInfo); os.Geteuid() == 0 && d.uid > 0 {
		o.uid, o.gid = d.uid, d.gid
	}
	return o
}

// apply gives f the owner, group and mode (chown first: it clears set-id bits).
func (o owner) apply(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if cur := ownerOf(info); o.uid >= 0 && (cur.uid != o.uid || cur.gid != o.gid) {
		if err := f.Chown(o.uid, o.gid); err != nil {
			return fmt.Errorf("keep owner %d:%d: %w", o.uid, o.gid, err)
		}
	}
	if err := f.Chmod(o.mode); err != nil {
		return fmt.Errorf("keep mode %v: %w", o.mode, err)
	}
	return nil
}

// newDirMode is the mode of a folder pitool makes: like its files, what it
// holds are private conversations.
const newDirMode = 0o700

// MkdirAll makes path and any missing parents, mode 0700. When pitool runs
// as root, each folder it makes gets the owner and group of the nearest
// folder that already existed, so that a clone or redacted copy made by root
// in a user's tree leaves a folder the user's own Pi can write into. Each
// folder is made in its parent's descriptor (mkdirat), opened without
// following a link and given its owner through that descriptor (fchown).
func MkdirAll(path string) error {
	missing, base := missingDirs(filepath.Clean(path))
	d, err := openDir(base)
	if err != nil {
		return err
	}
	defer func() { d.Close() }()
	baseInfo, err := d.f.Stat()
	if err != nil {
		return err
	}
	own := newOwner(baseInfo)
	for _, m := range missing {
		made := unix.Mkdirat(d.fd(), filepath.Base(m), newDirMode)
		if made != nil && !errors.Is(made, unix.EEXIST) {
			return &os.PathError{Op: "mkdir", Path: m, Err: made}
		}
		sub, err := d.openSub(filepath.Base(m))
		if err != nil {
			return err
		}
		d.Close()
		d = sub
		if made == nil && own.uid >= 0 {
			if err := unix.Fchown(d.fd(), own.uid, own.gid); err != nil {
				return fmt.Errorf("give %s to its folder's owner: %w", m, err)
			}
		}
	}
	return nil
}

// missingDirs lists the folders of path that do not exist yet, outermost
// first, and the nearest one that does.
func missingDirs(path string) (missing []string, base string) {
	for p := path; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil || filepath.Dir(p) == p {
			return missing, p
		}
		missing = append([]string{p}, missing...)
	}
}
