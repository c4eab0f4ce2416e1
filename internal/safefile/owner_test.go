package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMkdirAllGivesNewFoldersTheOwner: as root in a folder someone else
// owns, each folder made is 0700 and that owner's; the existing one is
// left as it is.
func TestMkdirAllGivesNewFoldersTheOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give folders another owner")
	}
	top := t.TempDir()
	if err := os.Chown(top, 1234, 1234); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(filepath.Join(top, "a", "b")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a", "a/b"} {
		info, err := os.Lstat(filepath.Join(top, d))
		if err != nil {
			t.Fatal(err)
		}
		st := info.Sys().(*syscall.Stat_t)
		if !info.IsDir() || info.Mode().Perm() != 0o700 || st.Uid != 1234 || st.Gid != 1234 {
			t.Errorf("%s: %v owned by %d:%d, want a 0700 folder owned by 1234:1234", d, info.Mode(), st.Uid, st.Gid)
		}
	}
	if err := MkdirAll(filepath.Join(top, "a", "b")); err != nil {
		t.Errorf("again: %v", err)
	}
}
