//go:build !unix

package sessionfiles

import "io/fs"

// fileKey identifies a file or folder; without inodes it is unknown.
type fileKey struct{}

// keyOf reports that the file's identity is unknown on this platform: a
// folder reached twice is searched twice, and MaxDepth stops a loop.
func keyOf(fs.FileInfo) (fileKey, bool) { return fileKey{}, false }

// hardLinked reports that any file may have other names: identity is
// unknown on this platform.
func hardLinked(fs.FileInfo) bool { return true }
