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

func mustWrite(t *testing.T, path, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteFileNewIs0600AndReplaceKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.jsonl")
	if err := WriteFile(path, Options{}, writeString("a\n")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", info.Mode().Perm())
	}
	os.Chmod(path, 0o640)
	if err := WriteFile(path, Options{}, writeString("b\n")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 || readFile(t, path) != "b\n" {
		t.Errorf("replaced: mode %v, %q", info.Mode().Perm(), readFile(t, path))
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("folder holds %v", got)
	}
}

func TestWriteFileThroughSymlinkKeepsTheLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.jsonl")
	mustWrite(t, target, "old\n", 0o644)
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink("real.jsonl", link)
	if err := WriteFile(link, Options{}, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if readFile(t, target) != "new\n" {
		t.Errorf("target = %q", readFile(t, target))
	}
}

func TestWriteFileIntoFIFOAndDeviceNeverReplacesThem(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		f, _ := os.Open(fifo)
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteFile(fifo, Options{}, writeString("through\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through\n" {
		t.Errorf("reader got %q", s)
	}
	if info, _ := os.Lstat(fifo); info.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("mknod (needs root):", err)
	}
	if err := WriteFile(null, Options{}, writeString("gone\n")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(null); info.Mode()&os.ModeCharDevice == 0 {
		t.Error("the device was replaced")
	}
}

func TestFailedWriteLeavesTargetUntouchedAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "keep\n", 0o644)
	boom := errors.New("boom")
	err := WriteFile(path, Options{}, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got := names(t, dir); len(got) != 1 || readFile(t, path) != "keep\n" {
		t.Errorf("after a failed write: %v, %q", got, readFile(t, path))
	}
}

func TestNoClobberRefusesAnExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q")
	mustWrite(t, path, "first\n", 0o600)
	if err := WriteFile(path, Options{NoClobber: true}, writeString("x")); !errors.Is(err, os.ErrExist) {
		t.Errorf("err = %v", err)
	}
}

// content returns a Content writing s that accounts for the whole old file.
func content(s string, basis int64) Content {
	return func(w io.Writer) (int64, error) { _, err := io.WriteString(w, s); return basis, err }
}

func beginT(t *testing.T, path string) *Edit {
	t.Helper()
	e, err := Begin(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestCommitKeepsBackupOwnerAndMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "v1\n", 0o640)
	root := os.Geteuid() == 0
	if root {
		os.Chown(path, 1234, 1234)
	}
	for _, v := range []string{"v2\n", "v3\n"} {
		e := beginT(t, path)
		if _, err := e.Commit(CommitOptions{Backup: true}, content(v, e.Stamp().Size)); err != nil {
			t.Fatal(err)
		}
		e.Close()
	}
	if readFile(t, path) != "v3\n" || readFile(t, path+".bak") != "v1\n" || readFile(t, path+".bak.1") != "v2\n" {
		t.Errorf("file %q, backups %q %q", readFile(t, path), readFile(t, path+".bak"), readFile(t, path+".bak.1"))
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the original 0640", info.Mode().Perm())
	}
	if st := info.Sys().(*syscall.Stat_t); root && (st.Uid != 1234 || st.Gid != 1234) {
		t.Errorf("owner %d:%d, want 1234:1234", st.Uid, st.Gid)
	}
}

func TestCommitCarriesLinesAppendedWhilePaused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "a\nb\n", 0o600)
	hook := t.TempDir()
	t.Setenv(PauseEnv, hook)
	go func() {
		for !exists(filepath.Join(hook, "paused")) {
			time.Sleep(time.Millisecond)
		}
		appendTo(t, path, "c\n")
		os.WriteFile(filepath.Join(hook, "resume"), nil, 0o600)
	}()
	e := beginT(t, path)
	res, err := e.Commit(CommitOptions{}, content("A\nB\n", 4))
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "A\nB\nc\n" || res.Carried != 2 {
		t.Errorf("file %q, carried %d", got, res.Carried)
	}
}

func TestCommitCarriesLinesAppendedAfterTheRename(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	pi, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pi.Close()
	afterInstall = func() { io.WriteString(pi, "late\n") }
	defer func() { afterInstall = func() {} }()
	e := beginT(t, path)
	upper := func(w io.Writer, b []byte) error { _, err := io.WriteString(w, strings.ToUpper(string(b))); return err }
	if _, err := e.Commit(CommitOptions{Carry: upper}, content("A\n", 2)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "A\nLATE\n" {
		t.Errorf("file %q", got)
	}
}

func TestCommitAbortsOnAnyOtherChange(t *testing.T) {
	cases := map[string]func(path string){
		"rewritten": func(p string) { f, _ := os.OpenFile(p, os.O_WRONLY, 0); f.WriteAt([]byte("X"), 0); f.Close() },
		"shrunk":    func(p string) { os.Truncate(p, 2) },
		"replaced":  func(p string) { os.Rename(p+".other", p) },
		"same size": func(p string) { os.Chtimes(p, time.Now(), time.Now().Add(time.Hour)) },
		"torn tail": func(p string) { appendTo(nil, p, "half") },
	}
	defer func(w time.Duration) { LineWait = w }(LineWait)
	LineWait = 50 * time.Millisecond
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			mustWrite(t, path, "a\nb\n", 0o600)
			mustWrite(t, path+".other", "a\nb\n", 0o600)
			e := beginT(t, path)
			change(path)
			before := readFile(t, path)
			_, err := e.Commit(CommitOptions{Backup: true}, content("new\n", 4))
			if !errors.Is(err, ErrChanged) {
				t.Fatalf("err = %v, want ErrChanged", err)
			}
			if readFile(t, path) != before || len(names(t, dir)) != 1+btoi(name != "replaced") {
				t.Errorf("file %q, folder %v", readFile(t, path), names(t, dir))
			}
		})
	}
}

func TestCommitOfCompressedContentAbortsOnGrowth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	e := beginT(t, path)
	appendTo(t, path, "b\n")
	if _, err := e.Commit(CommitOptions{}, content("zstd", -1)); !errors.Is(err, ErrChanged) {
		t.Errorf("err = %v", err)
	}
}

func TestCommitWaitsForAnIncompleteLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	e := beginT(t, path)
	appendTo(t, path, "hal")
	go func() { time.Sleep(100 * time.Millisecond); appendTo(t, path, "f\n") }()
	if _, err := e.Commit(CommitOptions{}, content("A\n", 2)); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "A\nhalf\n" {
		t.Errorf("file %q", got)
	}
}

func TestStaleTempsAreRemovedAndReported(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".s.jsonl"+tempMarker+"123")
	live := filepath.Join(dir, ".t.jsonl"+tempMarker+"456")
	mustWrite(t, stale, "secret\n", 0o600)
	mustWrite(t, live, "being written\n", 0o600)
	f, _ := os.Open(live)
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var reported []string
	ReportStale = func(p string) { reported = append(reported, p) }
	defer func() { ReportStale = nil }()
	if err := WriteFile(filepath.Join(dir, "out"), Options{}, writeString("x")); err != nil {
		t.Fatal(err)
	}
	if len(reported) != 1 || reported[0] != stale || exists(stale) || !exists(live) {
		t.Errorf("reported %v; stale there %v, live there %v", reported, exists(stale), exists(live))
	}
}

func TestRemoveOnlyAnUnchangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\n", 0o600)
	e := beginT(t, path)
	appendTo(t, path, "b\n")
	if err := e.Remove(); !errors.Is(err, ErrChanged) || !exists(path) {
		t.Fatalf("changed file: %v, still there %v", err, exists(path))
	}
	e.Close()
	e = beginT(t, path)
	if err := e.Remove(); err != nil || exists(path) {
		t.Errorf("unchanged file: %v, still there %v", err, exists(path))
	}
}

func TestBeginRefusesWhatIsNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := Begin(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Begin: %v", err)
	}
	if _, err := Lock(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Lock: %v", err)
	}
}

func TestLockExcludesASecondHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "x\n", 0o644)
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

func TestGuardLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "", 0o644)
	if err := GuardLive(path, false); !errors.Is(err, ErrRecentlyModified) {
		t.Errorf("fresh file: %v", err)
	}
	if err := GuardLive(path, true); err != nil {
		t.Errorf("forced: %v", err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	if err := GuardLive(path, false); err != nil {
		t.Errorf("idle file: %v", err)
	}
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func appendTo(t *testing.T, path, s string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = io.WriteString(f, s)
		f.Close()
	}
	if err != nil && t != nil {
		t.Error(err)
	}
}

func TestResolveStopsAtDescriptorPaths(t *testing.T) {
	link := filepath.Join(t.TempDir(), "out")
	os.Symlink("/proc/self/fd/1", link)
	if got, err := resolve(link); err != nil || got != "/proc/self/fd/1" {
		t.Errorf("resolve = %q, %v", got, err)
	}
	for _, p := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/2"} {
		if !isFd(p) {
			t.Errorf("%s is not taken for a descriptor", p)
		}
	}
	if isFd("/dev/shm/x.jsonl") {
		t.Error("/dev/shm/x.jsonl taken for a descriptor")
	}
}

func TestBeginKeepsItsStampWhenLinesAreAppendedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\nb\n", 0o600)
	afterStamp = func() { appendTo(t, path, "c\n") }
	defer func() { afterStamp = func() {} }()
	e := beginT(t, path)
	snap, err := io.ReadAll(e.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	if e.Stamp().Size != 4 || string(snap) != "a\nb\n" {
		t.Fatalf("stamp %d bytes, snapshot %q; want the 4 bytes before the append", e.Stamp().Size, snap)
	}
	afterStamp = func() {}
	res, err := e.Commit(CommitOptions{}, content("A\nB\n", 4))
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "A\nB\nc\n" || res.Carried != 2 {
		t.Errorf("file %q, carried %d", got, res.Carried)
	}
}

func TestBeginStampsOnceTheLastLineIsWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\nhal", 0o600)
	go func() { time.Sleep(10 * time.Millisecond); appendTo(t, path, "f\n") }()
	e := beginT(t, path)
	snap, _ := io.ReadAll(e.Snapshot())
	if string(snap) != "a\nhalf\n" {
		t.Errorf("snapshot %q, want the completed line", snap)
	}
}

func TestBeginStampsALastLineThatStaysIncomplete(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	mustWrite(t, path, "a\ntorn", 0o600)
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e := beginT(t, path)
	if e.Stamp().Size != 6 || time.Since(start) >= lineSettle {
		t.Errorf("stamp %d bytes after %v; want 6 bytes at once for a file left alone", e.Stamp().Size, time.Since(start))
	}
}
