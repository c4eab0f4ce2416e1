package safefile

import (
	"errors"
	"fmt"
	"os"
)

// BackupName returns the name a backup of path gets: FILE.bak, or FILE.bak.N
// when earlier backups exist, since a backup is never overwritten.
func BackupName(path string) (string, error) {
	name := path + ".bak"
	for i := 1; i < 1000; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
		name = fmt.Sprintf("%s.bak.%d", path, i)
	}
	return "", fmt.Errorf("%s: too many backups", path)
}

// linkBackup keeps the file at path, which must still be the inode s, as a
// hard link under a new backup name (same owner and mode, no copy).
func linkBackup(path string, s Stamp) (string, error) {
	name, err := BackupName(path)
	if err != nil {
		return "", err
	}
	if err := os.Link(path, name); err != nil {
		return "", fmt.Errorf("keep backup %s: %w", name, err)
	}
	if now, err := StatStamp(name); err != nil || !now.sameFile(s) {
		os.Remove(name)
		return "", fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return name, nil
}
