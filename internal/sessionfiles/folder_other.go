//go:build !unix

package sessionfiles

import (
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

// list returns the folder's entries sorted by name (os.ReadDir).
func (f *folder) list(*[]byte) ([]entry, error) {
	return readDir(f.path)
}
