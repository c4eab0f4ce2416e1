//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPermissionDeniedSaysSoOnce runs pitool as an unprivileged user (root
// reads every file) on a session it may not read: one line per error, the
// path once, "permission denied", and the batch commands carry on.
func TestPermissionDeniedSaysSoOnce(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	bin, sessions := nobodyFolder(t)
	locked := filepath.Join(sessions, "b.jsonl")
	copyFile(t, "../../testdata/corpus/v3/linear.jsonl", locked, 0o000)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(locked, old, old)
	want := "pitool: error: " + locked + ": permission denied\n"
	for _, args := range [][]string{
		{"info", locked},
		{"redact", "--check", locked},
		{"repair", "--in-place", "--force", locked},
		{"validate", filepath.Dir(sessions)},
		{"nightly", "--dry-run", filepath.Dir(sessions)},
	} {
		stderr := runAsNobody(t, bin, args...)
		if !strings.HasPrefix(stderr, want) || strings.Count(stderr, locked) != 1 {
			t.Errorf("pitool %s: stderr\n%s\nwant first line %q", strings.Join(args, " "), stderr, want)
		}
	}
}

// nobodyFolder copies pitool and a sessions folder holding one session,
// --p--/a.jsonl, into a folder an unprivileged user can enter, and returns
// the copy of pitool and the project folder.
func nobodyFolder(t *testing.T) (bin, sessions string) {
	t.Helper()
	pitool, err := exec.LookPath("pitool") // testscript.Main put it on $PATH
	if err != nil {
		t.Skip("pitool command not set up:", err)
	}
	dir := worldTempDir(t)
	bin = filepath.Join(dir, "pitool")
	copyFile(t, pitool, bin, 0o755)
	sessions = filepath.Join(dir, "sessions", "--p--")
	if err := os.MkdirAll(sessions, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../../testdata/corpus/v3/linear.jsonl", filepath.Join(sessions, "a.jsonl"), 0o644)
	return bin, sessions
}

// worldTempDir is a temporary folder that an unprivileged user can enter.
func worldTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "pitool-night-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runAsNobody runs bin as uid and gid 65534 and returns its stderr.
func runAsNobody(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Dir(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Errorf("pitool %s succeeded", strings.Join(args, " "))
	}
	return stderr.String()
}

// TestDescriptorOutputAsNobody writes -o /dev/stdout and --report
// /dev/stdout as an unprivileged user whose standard output is a pipe that
// root made: pitool writes through the descriptor it holds instead of
// opening the pipe again by name, which the kernel refuses.
func TestDescriptorOutputAsNobody(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	bin, sessions := nobodyFolder(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "md", filepath.Join(sessions, "a.jsonl"), "-o", "/dev/stdout"}, "# "},
		{[]string{"nightly", "--min-idle", "0", "--report", "/dev/stdout", filepath.Dir(sessions)}, `{"dir":`},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || !strings.HasPrefix(stdout.String(), c.want) {
			t.Errorf("pitool %s: %v, stdout starts %.40q, stderr %s", strings.Join(c.args, " "), err, stdout.String(), stderr.String())
		}
	}
}
