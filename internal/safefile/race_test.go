package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests of this file play the attacker of the package doc: a local user
// who owns the folder and swaps a name for a symlink, a FIFO or another
// file between two of pitool's system calls, at the moment a hook marks.

// swapForLink renames a new symlink to target over path, as one rename.
func swapForLink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path+".link"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".link", path); err != nil {
		t.Fatal(err)
	}
}

// TestCarryLateAppendsByDescriptorNotByName: right after the rename, the
// attacker links the new file aside, renames a symlink to a decoy (think
// /etc/passwd) over the session's name and writes a line into the old
// inode, which it held open. The line must land in the new file, which
// pitool holds open, and the decoy stay as it was.
func TestCarryLateAppendsByDescriptorNotByName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	decoy := filepath.Join(t.TempDir(), "passwd")
	mustWrite(t, path, "a\n", 0o600)
	mustWrite(t, decoy, "root:x:0:0\n", 0o644)
	held, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	afterInstall = func() {
		if err := os.Link(path, path+".new"); err != nil {
			t.Error(err)
		}
		swapForLink(t, decoy, path)
		io.WriteString(held, "late\n")
	}
	defer func() { afterInstall = func() {} }()
	e := beginT(t, path)
	if _, err := e.Commit(CommitOptions{}, content("A\n", 2)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, decoy); got != "root:x:0:0\n" {
		t.Errorf("decoy %q: the late line was appended through the link", got)
	}
	if got := readFile(t, path+".new"); got != "A\nlate\n" {
		t.Errorf("new file %q, want %q", got, "A\nlate\n")
	}
}

// TestBeginRefusesAFIFOSwappedInWithoutBlocking: the file is swapped for a
// FIFO right before Begin opens it. Begin must refuse it at once, not wait
// for a writer forever.
func TestBeginRefusesAFIFOSwappedInWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	beforeOpen = func(p string) {
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeOpen = func(string) {} }()
	done := make(chan error, 1)
	go func() {
		e, err := Begin(path)
		if e != nil {
			e.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Begin: %v, want ErrNotRegular", err)
		}
	case <-time.After(2 * time.Second):
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the blocked open return
		}
		t.Fatal("Begin blocked on a FIFO swapped in for the file")
	}
}

// TestRemoveGoesThroughTheFolderItOpened: between Remove's check and the
// removal, the attacker renames the session's folder away and puts a
// symlink to another folder in its place, which holds a file of the same
// name. Only the stamped file, in the folder Begin opened, is removed.
func TestRemoveGoesThroughTheFolderItOpened(t *testing.T) {
	top := t.TempDir()
	path := filepath.Join(top, "sess", "s.jsonl")
	victim := filepath.Join(top, "victim", "s.jsonl")
	for _, p := range []string{path, victim} {
		os.Mkdir(filepath.Dir(p), 0o700)
		mustWrite(t, p, "a\n", 0o600)
	}
	beforeRemove = func() {
		os.Rename(filepath.Dir(path), filepath.Join(top, "moved"))
		os.Symlink("victim", filepath.Join(top, "sess"))
	}
	defer func() { beforeRemove = func() {} }()
	e := beginT(t, path)
	if err := e.Remove(); err != nil {
		t.Fatal(err)
	}
	if !exists(victim) || exists(filepath.Join(top, "moved", "s.jsonl")) {
		t.Errorf("victim there %v (want true), stamped file there %v (want false)", exists(victim), exists(filepath.Join(top, "moved", "s.jsonl")))
	}
}

// TestRemoveLeavesWhatWasSwappedIn: between Remove's check and the removal,
// the session's name is given to another file, then to a symlink. Neither
// is removed (Remove removes only the inode it stamped) and Remove says
// the file changed.
func TestRemoveLeavesWhatWasSwappedIn(t *testing.T) {
	for name, swap := range map[string]func(path, decoy string){
		"file": func(path, decoy string) { os.Link(decoy, path+".x"); os.Rename(path+".x", path) },
		"link": func(path, decoy string) { swapForLink(t, decoy, path) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			decoy := filepath.Join(dir, "decoy")
			mustWrite(t, path, "a\n", 0o600)
			mustWrite(t, decoy, "a\n", 0o600)
			beforeRemove = func() { swap(path, decoy) }
			defer func() { beforeRemove = func() {} }()
			e := beginT(t, path)
			if err := e.Remove(); !errors.Is(err, ErrChanged) {
				t.Errorf("Remove: %v, want ErrChanged", err)
			}
			if !exists(path) || readFile(t, decoy) != "a\n" {
				t.Errorf("what was swapped in is gone (there %v), decoy %v", exists(path), exists(decoy))
			}
			if got := names(t, dir); len(got) != 2 {
				t.Errorf("folder holds %v, want s.jsonl and decoy", got)
			}
		})
	}
}

// TestBackupModeIsSetThroughTheDescriptor: right after the rename, the
// attacker replaces FILE.bak with a symlink to a decoy. The backup's mode
// (0600, for plaintext secrets) is set on the old file, never on what the
// name points to by then.
func TestBackupModeIsSetThroughTheDescriptor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	decoy := filepath.Join(t.TempDir(), "shadow")
	mustWrite(t, path, "a\n", 0o644)
	mustWrite(t, decoy, "x\n", 0o644)
	afterInstall = func() {
		os.Link(path+".bak", path+".kept")
		os.Remove(path + ".bak")
		os.Symlink(decoy, path+".bak")
	}
	defer func() { afterInstall = func() {} }()
	e := beginT(t, path)
	if _, err := e.Commit(CommitOptions{Backup: true, BackupMode: 0o600}, content("A\n", 2)); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(decoy); info.Mode().Perm() != 0o644 {
		t.Errorf("decoy mode %v, want 0644 untouched", info.Mode().Perm())
	}
	if info, _ := os.Stat(path + ".kept"); info.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", info.Mode().Perm())
	}
}

// TestNoClobberNeverFollowsALink: a dangling symlink planted where a new
// file is to be created (an archive, a quarantine) is something there: it
// is refused, and nothing is created where it points.
func TestNoClobberNeverFollowsALink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl.zst")
	outside := filepath.Join(t.TempDir(), "cron.d", "x")
	os.Mkdir(filepath.Dir(outside), 0o700)
	os.Symlink(outside, path)
	if err := WriteFile(path, Options{NoClobber: true}, writeString("x\n")); !errors.Is(err, os.ErrExist) {
		t.Errorf("WriteFile: %v, want ErrExist", err)
	}
	if exists(outside) {
		t.Error("a file was created through the dangling link")
	}
}

// TestProtectedSymlinks: a symlink in a sticky world-writable folder (/tmp)
// owned by another user than the caller and the folder's owner is refused,
// as the kernel's fs.protected_symlinks refuses it; pitool follows links
// by hand, so it must apply the rule itself. A link the rule allows is
// still written through.
func TestProtectedSymlinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the link another owner")
	}
	sticky := t.TempDir()
	if err := os.Chmod(sticky, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	decoy := filepath.Join(t.TempDir(), "passwd")
	mustWrite(t, decoy, "root:x:0:0\n", 0o644)
	for _, target := range []string{decoy, filepath.Join(filepath.Dir(decoy), "new")} {
		link := filepath.Join(sticky, "out-"+filepath.Base(target))
		os.Symlink(target, link)
		if err := os.Lchown(link, 1234, 1234); err != nil {
			t.Fatal(err)
		}
		err := WriteFile(link, Options{}, writeString("pwned\n"))
		if err == nil || !strings.Contains(err.Error(), "symlink in a sticky world-writable folder owned by uid 1234: refusing to follow it") {
			t.Errorf("WriteFile through %s: %v, want the protected_symlinks refusal", link, err)
		}
		if _, err := Begin(link); err == nil || !strings.Contains(err.Error(), "protected_symlinks") {
			t.Errorf("Begin through %s: %v, want the protected_symlinks refusal", link, err)
		}
	}
	if got := readFile(t, decoy); got != "root:x:0:0\n" || exists(filepath.Join(filepath.Dir(decoy), "new")) {
		t.Errorf("decoy %q, new file there %v", got, exists(filepath.Join(filepath.Dir(decoy), "new")))
	}
	own := filepath.Join(sticky, "own")
	os.Symlink(decoy, own) // the caller's own link: followed
	if err := WriteFile(own, Options{}, writeString("ok\n")); err != nil || readFile(t, decoy) != "ok\n" {
		t.Errorf("the caller's own link: %v, decoy %q", err, readFile(t, decoy))
	}
}
