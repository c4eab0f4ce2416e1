package archive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/safefile"
)

// The tests of this file play a local user who owns a session folder that
// nightly, run as root, archives, and who swaps names there meanwhile.

func corpusFile(name string) string { return filepath.Join("..", "testdata", "corpus", name) }

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, mode); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveRefusesALinkAtTheArchiveName: a dangling symlink planted as
// X.jsonl.zst is an archive that already exists: nothing is created where
// it points, and X.jsonl stays.
func TestArchiveRefusesALinkAtTheArchiveName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), path, 0o600)
	outside := filepath.Join(t.TempDir(), "created.zst")
	if err := os.Symlink(outside, path+".zst"); err != nil {
		t.Fatal(err)
	}
	if _, err := Archive(path); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("archive: %v, want the archive already exists", err)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Error("an archive was created through the dangling link")
	}
	if _, err := os.Lstat(path); err != nil {
		t.Errorf("the session is gone: %v", err)
	}
}

// TestArchiveNeverFollowsALinkSwappedInAfterTheCheck: after archivable
// checked X.jsonl, a symlink to another file (a victim) is renamed over it.
// archive must refuse it: neither read the victim into the user's folder
// nor remove it.
func TestArchiveNeverFollowsALinkSwappedInAfterTheCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	victim := filepath.Join(t.TempDir(), "victim.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), path, 0o600)
	copyFile(t, corpusFile("v3/linear.jsonl"), victim, 0o600)
	if !Archivable(path) {
		t.Fatal("the session is not archivable")
	}
	if err := os.Symlink(victim, path+".link"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".link", path); err != nil {
		t.Fatal(err)
	}
	if _, err := Archive(path); !errors.Is(err, safefile.ErrNotRegular) {
		t.Errorf("archive: %v, want ErrNotRegular", err)
	}
	if _, err := os.Lstat(victim); err != nil {
		t.Errorf("the victim was removed: %v", err)
	}
	if _, err := os.Lstat(path + ".zst"); err == nil {
		t.Error("the victim's bytes were archived into the user's folder")
	}
}

// TestUnarchiveNeverBlocksOnAFIFO: a FIFO where unarchive reads X.jsonl (a
// copy an interrupted unarchive may have left) is refused at once, not
// waited on for a writer, and the archive stays.
func TestUnarchiveNeverBlocksOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), path, 0o600)
	zst, err := Archive(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Unarchive(zst); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Unarchive: %v, want X.jsonl is not a regular file", err)
		}
	case <-time.After(2 * time.Second):
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close() // let the blocked open return
		}
		t.Fatal("Unarchive blocked on a FIFO")
	}
	if _, err := os.Lstat(zst); err != nil {
		t.Errorf("the archive is gone: %v", err)
	}
}

// TestArchiveKeepsTheTime: the archive has the session file's modification
// time, as gzip keeps it: it is as idle as the session it holds.
func TestArchiveKeepsTheTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), path, 0o600)
	then := time.Now().Add(-40 * 24 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, then, then); err != nil {
		t.Fatal(err)
	}
	zst, err := Archive(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(zst)
	if err != nil {
		t.Fatal(err)
	}
	if !info.ModTime().Equal(then) {
		t.Errorf("the archive's time is %v, want %v", info.ModTime(), then)
	}
}
