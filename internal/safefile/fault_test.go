package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inject sets the fault hook for one test.
func inject(t *testing.T, f faults) {
	t.Helper()
	old := injected
	injected = f
	t.Cleanup(func() { injected = old })
}

func TestParseFaults(t *testing.T) {
	for s, want := range map[string]faults{
		"":               {writeLimit: -1},
		"write-after:0":  {writeLimit: 0},
		"write-after:77": {writeLimit: 77},
		"write-after:-1": {writeLimit: -1},
		"write-after:x":  {writeLimit: -1},
		"sync":           {writeLimit: -1, syncEIO: true},
		"other":          {writeLimit: -1},
	} {
		if got := parseFaults(s); got != want {
			t.Errorf("parseFaults(%q) = %+v, want %+v", s, got, want)
		}
	}
}

// bigContent is more than one buffer of the writers, so that a limit falls
// in the first flush, in a later one or in the last.
var bigContent = strings.Repeat("0123456789abcde\n", 20_000)

// faultLimits are the byte counts after which the disk is full.
var faultLimits = []int64{0, 1, 64<<10 - 1, 64 << 10, 200_000, int64(len(bigContent)) - 1}

// assertUntouched checks that dir holds exactly the file s.jsonl, with old.
func assertUntouched(t *testing.T, dir, old string) {
	t.Helper()
	if got := readFile(t, filepath.Join(dir, "s.jsonl")); got != old {
		t.Errorf("file changed: %d bytes, want the %d it had", len(got), len(old))
	}
	if got := names(t, dir); len(got) != 1 || got[0] != "s.jsonl" {
		t.Errorf("folder holds %v, want s.jsonl alone (no temporary file, no backup)", got)
	}
}

func TestWriteFileFullDiskLeavesTheTarget(t *testing.T) {
	for _, n := range faultLimits {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		mustWrite(t, path, "old\n", 0o600)
		inject(t, faults{writeLimit: n})
		err := WriteFile(path, Options{}, writeString(bigContent))
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "write "+path+": ") || strings.Contains(err.Error(), "pitool-tmp") {
			t.Errorf("full after %d bytes: %v, want ENOSPC naming the file, never its temporary one", n, err)
		}
		assertUntouched(t, dir, "old\n")
	}
}

func TestCommitFullDiskLeavesTheFile(t *testing.T) {
	for _, n := range faultLimits {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		mustWrite(t, path, "old\n", 0o600)
		e := beginT(t, path)
		inject(t, faults{writeLimit: n})
		_, err := e.Commit(CommitOptions{Backup: true}, content(bigContent, 4))
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("full after %d bytes: %v, want ENOSPC", n, err)
		}
		e.Close()
		assertUntouched(t, dir, "old\n")
	}
}

// TestCommitFullDiskWhileCarrying: the disk fills while the lines Pi
// appended meanwhile are carried into the new content: the file keeps its
// bytes and Pi's line.
func TestCommitFullDiskWhileCarrying(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "old\n", 0o600)
	hook := t.TempDir()
	t.Setenv(PauseEnv, hook)
	go func() {
		for !exists(filepath.Join(hook, "paused")) {
			time.Sleep(time.Millisecond)
		}
		appendTo(nil, path, "pi\n")
		os.WriteFile(filepath.Join(hook, "resume"), nil, 0o600)
	}()
	e := beginT(t, path)
	inject(t, faults{writeLimit: int64(len(bigContent)) + 1})
	_, err := e.Commit(CommitOptions{Backup: true}, content(bigContent, 4))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "carry lines appended to "+path) {
		t.Errorf("full while carrying: %v", err)
	}
	e.Close()
	assertUntouched(t, dir, "old\npi\n")
}

func TestAppendLineFullDiskTruncatesTheTornLine(t *testing.T) {
	for _, n := range []int64{0, 1, 10} {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		mustWrite(t, path, "old\n", 0o600)
		stamp, _ := StatStamp(path)
		inject(t, faults{writeLimit: n})
		err := AppendLine(path, stamp, []byte(`{"type":"compaction","id":"c0000001"}`))
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "append to "+path) {
			t.Errorf("full after %d bytes: %v", n, err)
		}
		assertUntouched(t, dir, "old\n")
	}
}

// TestSyncEIO: an fsync that fails with EIO fails the write, naming the
// file. A replacement then never happens; an append has written its line
// (the kernel holds it) and says that the sync failed.
func TestSyncEIO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "old\n", 0o600)
	inject(t, faults{writeLimit: -1, syncEIO: true})
	err := WriteFile(path, Options{}, writeString("new\n"))
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "sync "+path+": ") || strings.Contains(err.Error(), "pitool-tmp") {
		t.Errorf("WriteFile: %v, want EIO naming the file, never its temporary one", err)
	}
	assertUntouched(t, dir, "old\n")

	e := beginT(t, path)
	_, err = e.Commit(CommitOptions{Backup: true}, content("new\n", 4))
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("Commit: %v, want EIO", err)
	}
	e.Close()
	assertUntouched(t, dir, "old\n")

	stamp, _ := StatStamp(path)
	if err := AppendLine(path, stamp, []byte("line")); !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "sync "+path) {
		t.Errorf("AppendLine: %v, want EIO naming the file", err)
	}
	if got := readFile(t, path); got != "old\nline\n" {
		t.Errorf("after the failed sync the file is %q", got)
	}
}

// TestAppendLineWithdrawsALineThatLandedAfterPis: Pi appends between
// AppendLine's check and its write (the pause hook holds it there). The
// line would follow Pi's and take it off the active branch, so it is
// blanked, and ErrChanged returned.
func TestAppendLineWithdrawsALineThatLandedAfterPis(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "old\n", 0o600)
	stamp, _ := StatStamp(path)
	hook := t.TempDir()
	t.Setenv(PauseEnv, hook)
	go func() {
		for !exists(filepath.Join(hook, "paused")) {
			time.Sleep(time.Millisecond)
		}
		appendTo(nil, path, "pi\n")
		os.WriteFile(filepath.Join(hook, "resume"), nil, 0o600)
	}()
	err := AppendLine(path, stamp, []byte("compaction"))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "withdrawn (left blank at byte 7)") {
		t.Errorf("AppendLine: %v, want ErrChanged saying the line was withdrawn", err)
	}
	if got, want := readFile(t, path), "old\npi\n"+strings.Repeat(" ", 10)+"\n"; got != want {
		t.Errorf("file %q, want %q", got, want)
	}
}

// TestBeginRemovesStaleTemporaryFiles: a killed run's temporary file is
// removed by the next in-place command on that folder even when it finds
// nothing to write (repair of the file the killed run had repaired).
func TestBeginRemovesStaleTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	mustWrite(t, filepath.Join(dir, ".s.jsonl.quarantine"+tempMarker+"123"), "torn", 0o600)
	e := beginT(t, path)
	e.Close()
	if got := names(t, dir); len(got) != 1 || got[0] != "s.jsonl" {
		t.Errorf("folder holds %v after Begin, want s.jsonl alone", got)
	}
}

// TestCommitCarriesLinesAppendedDuringTheSync: Pi appends A to the old file
// while the new one is synced (long, for a large file), then B by name
// after the rename, into the new file. A must come before B: carried only
// after the rename, A would follow B, and Pi, resuming at the last entry,
// would leave B off its branch.
func TestCommitCarriesLinesAppendedDuringTheSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	once := false
	afterSync = func() {
		if !once {
			once = true
			appendTo(t, path, "A\n")
		}
	}
	afterInstall = func() { appendTo(t, path, "B\n") }
	defer func() { afterSync, afterInstall = func() {}, func() {} }()
	e := beginT(t, path)
	if _, err := e.Commit(CommitOptions{}, content("x\n", 2)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "x\nA\nB\n" {
		t.Errorf("file %q, want %q", got, "x\nA\nB\n")
	}
}
