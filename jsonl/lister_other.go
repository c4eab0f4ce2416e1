//go:build !linux

package jsonl

import (
	"os"
	"time"
)

// listedFile is a file opened for listing, and its size and time.
type listedFile struct {
	*os.File
	size    int64
	modTime time.Time
	isDir   bool
}

// openListed opens path for reading and stats it.
func openListed(path string) (*listedFile, error) {
	f, st, err := openFile(path)
	if err != nil {
		return nil, err
	}
	return &listedFile{File: f, size: st.Size(), modTime: st.ModTime(), isDir: st.IsDir()}, nil
}
