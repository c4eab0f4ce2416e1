package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// corpusFile is a file of the committed corpus.
func corpusFile(name string) string { return filepath.Join("..", "..", "testdata", "corpus", name) }

// pitoolExe returns the real pitool binary: this test binary under the name
// pitool, which testscript.Main (in TestMain) runs as pitool.
func pitoolExe(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "pitool")
	if err := os.Symlink(self, exe); err != nil {
		t.Fatal(err)
	}
	return exe
}

// pitool runs the binary and fails the test unless it exits 0.
func pitool(t *testing.T, exe string, args ...string) string {
	t.Helper()
	cmd := exec.Command(exe, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pitool %v: %v\n%s", args, err, errb.String())
	}
	return string(out)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(to, mode); err != nil {
		t.Fatal(err)
	}
}

// ownerMode returns "uid:gid:mode" of path.
func ownerMode(t *testing.T, path string) string {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	return fmt.Sprintf("%d:%d:%o", st.Uid, st.Gid, info.Mode().Perm())
}

func TestWriteIntoADeviceNodeNeverReplacesIt(t *testing.T) {
	exe := pitoolExe(t)
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("mknod needs root:", err)
	}
	sessions := filepath.Join(dir, "sessions")
	copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(sessions, "p", "a.jsonl"), 0o600)
	pitool(t, exe, "repair", "--force", "-o", null, corpusFile("v3/linear.jsonl"))
	pitool(t, exe, "export", "md", "-o", null, corpusFile("v3/linear.jsonl"))
	pitool(t, exe, "nightly", "--min-idle", "0", "--report", null, sessions)
	info, err := os.Lstat(null)
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", null, info.Mode(), err)
	}
}

// TestWriteKeepsTheOwnerAsRoot: run as root, repair --in-place and archive
// leave a user's file owned by the user, and a new file in a user's folder
// belongs to that user.
func TestWriteKeepsTheOwnerAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	exe := pitoolExe(t)
	dir := t.TempDir()
	// root writes into a user's folder as that user (privsep.go), who must
	// be able to reach it: t.TempDir()'s folders are root's, mode 0700
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	s := filepath.Join(dir, "s.jsonl")
	copyFile(t, corpusFile("corrupt/duplicate-flush.jsonl"), s, 0o640)
	os.Chown(s, 1234, 1234)
	pitool(t, exe, "repair", "--in-place", "--force", s)
	if got := ownerMode(t, s); got != "1234:1234:640" {
		t.Errorf("after repair --in-place: %s, want 1234:1234:640", got)
	}
	if got := ownerMode(t, s+".bak"); got != "1234:1234:640" {
		t.Errorf("backup: %s", got)
	}

	sessions := filepath.Join(dir, "sessions")
	a := filepath.Join(sessions, "p", "a.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), a, 0o640)
	os.Chown(a, 1234, 1234)
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(a, old, old)
	pitool(t, exe, "nightly", "--min-idle", "0", "--archive-after", "1d", "--report", filepath.Join(dir, "r.json"), sessions)
	if got := ownerMode(t, a+".zst"); got != "1234:1234:640" {
		t.Errorf("archive: %s, want 1234:1234:640", got)
	}

	user := filepath.Join(dir, "user")
	os.Mkdir(user, 0o755)
	os.Chown(user, 1234, 1234)
	pitool(t, exe, "repair", "--force", "-o", filepath.Join(user, "new.jsonl"), corpusFile("v3/linear.jsonl"))
	if got := ownerMode(t, filepath.Join(user, "new.jsonl")); got != "1234:1234:600" {
		t.Errorf("new file in a user's folder: %s, want 1234:1234:600", got)
	}
	clones := filepath.Join(user, "sessions")
	out := pitool(t, exe, "clone", "--dir", filepath.Join(clones, "--home-u-p--"), corpusFile("v3/linear.jsonl"))
	for _, p := range []string{clones, filepath.Join(clones, "--home-u-p--")} {
		if got := ownerMode(t, p); got != "1234:1234:700" {
			t.Errorf("folder %s made by clone: %s, want 1234:1234:700", p, got)
		}
	}
	if got := ownerMode(t, strings.TrimSpace(out)); got != "1234:1234:600" {
		t.Errorf("cloned session: %s, want 1234:1234:600", got)
	}
}

// stressCase is one in-place command run while an appender writes.
type stressCase struct {
	name    string
	session string // corpus file to start from
	lastID  string // its last entry, the appender's first parent
	args    func(dir, file string) []string
	file    func(dir string) string
}

var stressCases = []stressCase{
	{"repair", "corrupt/duplicate-flush.jsonl", "a7bc1895",
		func(_, f string) []string { return []string{"repair", "--in-place", "--force", f} },
		func(dir string) string { return filepath.Join(dir, "s.jsonl") }},
	{"redact", "secrets/session.jsonl", "33651f3b",
		func(_, f string) []string { return []string{"redact", "--in-place", "--force", f} },
		func(dir string) string { return filepath.Join(dir, "s.jsonl") }},
	{"nightly", "corrupt/duplicate-flush.jsonl", "a7bc1895",
		func(dir, _ string) []string {
			return []string{"nightly", "--min-idle", "0", "--report", filepath.Join(dir, "r.json"), filepath.Join(dir, "sessions")}
		},
		func(dir string) string { return filepath.Join(dir, "sessions", "p", "s.jsonl") }},
}

// TestWriteLosesNoAppendedLine runs repair --in-place, redact --in-place and
// nightly while an appender writes a Pi line every millisecond, and checks
// that every line is in the file exactly once. PITOOL_STRESS_TRIALS sets the
// number of trials (default 6, the long suite 30; the figure is 100).
func TestWriteLosesNoAppendedLine(t *testing.T) {
	trials := stressTrials(6)
	exe := pitoolExe(t)
	appended, lost, failed := 0, 0, 0
	for i := 0; i < trials; i++ {
		c := stressCases[i%len(stressCases)]
		n, l, err := stressTrial(t, exe, c, i)
		appended, lost = appended+n, lost+l
		if err != nil {
			failed++
			t.Errorf("trial %d (%s): %v", i, c.name, err)
		}
	}
	t.Logf("%d trials, %d lines appended during the runs, %d lost, %d runs failed", trials, appended, lost, failed)
	if lost > 0 {
		t.Errorf("%d appended lines lost", lost)
	}
}

// stressTrial runs one command under the appender and returns how many lines
// were appended and how many of them are not exactly once in the file.
func stressTrial(t *testing.T, exe string, c stressCase, trial int) (appended, lost int, err error) {
	dir := t.TempDir()
	file := c.file(dir)
	copyFile(t, corpusFile(c.session), file, 0o600)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var ids []string
	wg.Add(1)
	go func() {
		defer wg.Done()
		ids = appendEveryMillisecond(file, c.lastID, trial, stop)
	}()
	time.Sleep(5 * time.Millisecond)
	out, runErr := exec.Command(exe, c.args(dir, file)...).CombinedOutput()
	time.Sleep(5 * time.Millisecond) // appends right after the rename count too
	close(stop)
	wg.Wait()
	if runErr != nil {
		err = fmt.Errorf("%v: %s", runErr, out)
	}
	data, rerr := os.ReadFile(file)
	if rerr != nil {
		return len(ids), len(ids), rerr
	}
	for _, id := range ids {
		if bytes.Count(data, []byte(`"id":"`+id+`"`)) != 1 {
			lost++
		}
	}
	return len(ids), lost, err
}

// appendEveryMillisecond appends a Pi user message every millisecond, each
// with its own open and close as Pi does, until stop; it returns their ids.
func appendEveryMillisecond(file, parent string, trial int, stop <-chan struct{}) []string {
	var ids []string
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for k := 0; ; k++ {
		select {
		case <-stop:
			return ids
		case <-tick.C:
		}
		id := fmt.Sprintf("t%03dx%04d", trial, k)
		line := fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-12-01T00:08:00.000Z","message":{"role":"user","content":[{"type":"text","text":"line %d"}],"timestamp":1767225680000}}`+"\n", id, parent, k)
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			continue
		}
		if _, err := f.WriteString(line); err == nil {
			ids = append(ids, id)
			parent = id
		}
		f.Close()
	}
}
