package safefile

import (
	"fmt"
	"os"
	"syscall"
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

// newOwner is what a new file in dir gets: mode 0600 and, when pitool runs
// as root in a folder someone else owns, that folder's owner and group.
func newOwner(dir string) owner {
	o := owner{uid: -1, gid: -1, mode: newFileMode}
	if os.Geteuid() != 0 {
		return o
	}
	if info, err := os.Stat(dir); err == nil {
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			o.uid, o.gid = int(st.Uid), int(st.Gid)
		}
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
