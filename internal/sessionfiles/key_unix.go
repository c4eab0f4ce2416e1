//go:build unix

package sessionfiles

import (
	"io/fs"
	"syscall"
)

// fileKey identifies a file or folder by device and inode.
type fileKey struct{ dev, ino uint64 }

// keyOf returns info's device and inode; ok is false when they are unknown.
func keyOf(info fs.FileInfo) (fileKey, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // Dev's type differs by platform
}
