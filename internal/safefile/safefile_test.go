package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReplaceKeepsBackupsAndNeverOverwritesThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("v1\n"), 0o640)
	for _, v := range []string{"v2\n", "v3\n"} {
		if err := Replace(path, Options{Backup: true}, writeString(v)); err != nil {
			t.Fatal(err)
		}
	}
	if got := readFile(t, path); got != "v3\n" {
		t.Errorf("file = %q", got)
	}
	if readFile(t, path+".bak") != "v1\n" || readFile(t, path+".bak.1") != "v2\n" {
		t.Errorf("backups wrong: %q %q", readFile(t, path+".bak"), readFile(t, path+".bak.1"))
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the original 0640", info.Mode().Perm())
	}
}

func TestReplaceRefusesChangedFileAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	os.WriteFile(path, []byte("old\n"), 0o644)
	stamp, _ := StatStamp(path)
	os.WriteFile(path, []byte("appended by Pi\n"), 0o644)
	os.Chtimes(path, time.Now(), time.Now().Add(time.Second))
	err := Replace(path, Options{Expect: &stamp}, writeString("new\n"))
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || readFile(t, path) != "appended by Pi\n" {
		t.Errorf("folder has %d files, file %q", len(entries), readFile(t, path))
	}
}

func TestFailedWriteLeavesTargetUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	os.WriteFile(path, []byte("keep\n"), 0o644)
	boom := errors.New("boom")
	err := Replace(path, Options{Backup: true}, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || readFile(t, path) != "keep\n" {
		t.Errorf("after a failed write: %d files, %q", len(entries), readFile(t, path))
	}
}

func TestLockExcludesASecondHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("x\n"), 0o644)
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func(w time.Duration) { LockWait = w }(LockWait)
	LockWait = 100 * time.Millisecond
	if err := AppendLine(path, Stamp{}, []byte("y")); !errors.Is(err, ErrLocked) {
		t.Errorf("append while locked: %v, want ErrLocked", err)
	}
	unlock()
	stamp, _ := StatStamp(path)
	if err := AppendLine(path, stamp, []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "x\n{\"a\":1}\n" {
		t.Errorf("file = %q", got)
	}
}

func TestCheckIdle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, nil, 0o644)
	if err := CheckIdle(path, time.Minute); !errors.Is(err, ErrRecentlyModified) {
		t.Errorf("fresh file: %v", err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	if err := CheckIdle(path, time.Minute); err != nil {
		t.Errorf("idle file: %v", err)
	}
}
