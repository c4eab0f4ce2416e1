package safefile

import (
	"errors"
	"fmt"
	"os"
)

// backupName returns the name a backup of the file name in d gets:
// NAME.bak, or NAME.bak.N when earlier backups exist, since a backup is
// never overwritten.
func (d *dir) backupName(name string) (string, error) {
	bak := name + ".bak"
	for i := 1; i < 1000; i++ {
		if _, err := d.lstat(bak); errors.Is(err, os.ErrNotExist) {
			return bak, nil
		}
		bak = fmt.Sprintf("%s.bak.%d", name, i)
	}
	return "", fmt.Errorf("%s: too many backups", d.join(name))
}

// linkBackup keeps the file Begin stamped as a hard link under a new
// backup name in its folder (same owner and mode, no copy), and returns
// that name. The link is made within the folder's descriptor, never
// through a symlink, and checked to be the stamped inode.
func (e *Edit) linkBackup() (string, error) {
	bak, err := e.dir.backupName(e.name)
	if err != nil {
		return "", err
	}
	if err := e.dir.link(e.name, bak); err != nil {
		return "", fmt.Errorf("keep backup: %w", err)
	}
	if info, err := e.dir.lstat(bak); err != nil || !stampOf(info).sameFile(e.stamp) {
		e.dir.unlink(bak)
		return "", fmt.Errorf("%s: %w", e.Path, ErrChanged)
	}
	return bak, nil
}
