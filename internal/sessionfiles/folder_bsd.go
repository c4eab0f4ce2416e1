//go:build unix && !linux

package sessionfiles

// dirents holds nothing here: os.ReadDir reads a folder.
type dirents struct{}

// list returns the folder's entries sorted by name (os.ReadDir).
func (f *folder) list(*dirents) ([]entry, error) {
	return readDir(f.path)
}
