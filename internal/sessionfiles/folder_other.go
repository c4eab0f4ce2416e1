//go:build !unix

package sessionfiles

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// folder is a folder the walk searches, by its path.
type folder struct{ path string }

// openFolder checks that path is a folder, following a symlink.
func openFolder(path string) (*folder, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	return &folder{path: path}, nil
}

// openChild opens the folder f lists as d, errIsLink when it is a
// symlink now.
func (f *folder) openChild(d entry) (*folder, error) {
	path, name := d.path, d.name
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, errIsLink
	}
	return openFolder(path)
}

func (f *folder) close() {}

// key reports that a folder's identity is unknown on this platform.
func (f *folder) key() (fileKey, bool, error) { return fileKey{}, false, nil }

// stat stats the folder's entry name, following a symlink.
func (f *folder) stat(name string) (fs.FileInfo, error) {
	return os.Stat(filepath.Join(f.path, name))
}

// statPath stats path, following a symlink.
func statPath(path string) (fs.FileInfo, error) { return os.Stat(path) }

// dirents holds nothing here: os.ReadDir reads a folder.
type dirents struct{}

// list returns the folder's entries sorted by name (os.ReadDir).
func (f *folder) list(*dirents) ([]entry, error) {
	return readDir(f.path)
}

// statEach stats each regular file of entries whose name matches: it
// returns the entries with those gone since the listing dropped, and per
// entry its stat or nil. The first other failure ends it: at is that
// entry's index (else -1), err the failure.
func (f *folder) statEach(entries []entry, match func(string) bool) (kept []entry, infos []fs.FileInfo, at int, err error) {
	infos = make([]fs.FileInfo, len(entries))
	kept = entries[:0]
	for j, d := range entries {
		if !d.mode.IsRegular() || !match(d.name) {
			kept = append(kept, d)
			continue
		}
		info, err := os.Stat(d.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // gone since the listing, as a file gone before it
		case err != nil:
			at = len(kept)
			return append(kept, entries[j:]...), infos, at, err
		}
		infos[len(kept)] = info
		kept = append(kept, d)
	}
	return kept, infos[:len(kept)], -1, nil
}
