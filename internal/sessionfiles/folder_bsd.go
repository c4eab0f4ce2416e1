//go:build unix && !linux

package sessionfiles

// list returns the folder's entries sorted by name (os.ReadDir).
func (f *folder) list(*[]byte) ([]entry, error) {
	return readDir(f.path)
}
