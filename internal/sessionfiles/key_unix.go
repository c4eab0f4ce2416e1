//go:build unix

package sessionfiles

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// fileKey identifies a file or folder by device and inode.
type fileKey struct{ dev, ino uint64 }

// keyOf returns the device and inode of a stat the walk took; ok is false
// when they are unknown.
func keyOf(info fs.FileInfo) (fileKey, bool) {
	st, ok := info.Sys().(*unix.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return keyOfStat(st), true
}

func keyOfStat(st *unix.Stat_t) fileKey {
	return fileKey{uint64(st.Dev), uint64(st.Ino)} //nolint:unconvert // Dev's type differs by platform
}

// hardLinked reports whether a file has more than one name, so that a walk
// may meet it again without a symlink.
func hardLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*unix.Stat_t)
	return !ok || st.Nlink > 1
}
