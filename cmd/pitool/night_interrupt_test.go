package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNightlySIGINTCountsInterrupted sends SIGINT to a real pitool process
// while both workers wait on a slow summarizer: exit 130, the two files in
// flight reported as "interrupted" (not failed), the third as not started,
// every file unchanged, and no Go error text anywhere.
func TestNightlySIGINTCountsInterrupted(t *testing.T) {
	pitool, err := exec.LookPath("pitool") // testscript.Main put it on $PATH
	if err != nil {
		t.Skip("pitool command not set up:", err)
	}
	dir := filepath.Join(t.TempDir(), "sessions", "--home-dev-proj--")
	orig, err := os.ReadFile("../../testdata/corpus/v3/linear.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	marks := t.TempDir()
	cmd := exec.Command(pitool, "nightly", "-j", "2", "--min-idle", "0", "--context-window", "7000",
		"--reserve-tokens", "3500", "--keep-recent-tokens", "1000", "--summarizer", "command",
		"--command", `mktemp -p "$MARKS" >/dev/null; exec sleep 30`, filepath.Dir(dir))
	cmd.Env = append(os.Environ(), "MARKS="+marks)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForMarks(t, marks, 2)
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, exitInterrupted, stderr.String())
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s to stop after SIGINT", took)
	}
	checkInterruptReport(t, stdout.Bytes())
	for _, text := range []string{stdout.String(), stderr.String()} {
		if strings.Contains(text, "context canceled") {
			t.Errorf("Go error text in output:\n%s", text)
		}
	}
	if !strings.Contains(stderr.String(), "3 files: 0 compacted") || !strings.Contains(stderr.String(), "pitool: error: interrupted\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "0 failed, 2 interrupted, 1 not started") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, orig) {
			t.Errorf("%s changed", name)
		}
	}
}

func waitForMarks(t *testing.T, dir string, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if marks, _ := os.ReadDir(dir); len(marks) >= n {
			return
		}
	}
	t.Fatalf("the summarizer did not start %d times", n)
}

func checkInterruptReport(t *testing.T, out []byte) {
	t.Helper()
	var rep struct {
		Interrupted bool
		Totals      map[string]int
		Files       []struct{ File, Action, Detail string }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if !rep.Interrupted || rep.Totals["interrupted"] != 2 || rep.Totals["failed"] != 0 || rep.Totals["files"] != 2 {
		t.Errorf("report totals %v, interrupted %v", rep.Totals, rep.Interrupted)
	}
	for _, f := range rep.Files {
		if f.Action != "interrupted" || f.Detail != "interrupted" {
			t.Errorf("file %+v", f)
		}
	}
}
