package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startBlocked starts the real pitool with args, its stdin a pipe that is
// never closed, and waits until it has had time to block on its input.
func startBlocked(t *testing.T, exe string, args ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(500 * time.Millisecond) // past the start, signal.Notify and the open of the input
	select {
	case err := <-done:
		t.Fatalf("pitool %v ended before the signal: %v\n%s", args, err, stderr.String())
	default:
	}
	return cmd, &stderr, done
}

// waitExit waits at most limit for the process and returns its exit status.
func waitExit(t *testing.T, done chan error, limit time.Duration) int {
	t.Helper()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err == nil {
			return 0
		}
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return ee.ExitCode()
	case <-time.After(limit):
		t.Fatalf("pitool still running %v after the signal", limit)
	}
	return -1
}

// TestSignalEndsBlockedRun: SIGTERM ends a command whose worker is blocked
// in a read (stdin a pipe that never closes) within a second, exit 130 and
// one "interrupted" line. (A FIFO named as a file no longer blocks: it is
// refused at its open, TestOpenRefusesAFIFOWithoutWaiting.)
func TestSignalEndsBlockedRun(t *testing.T) {
	exe := pitoolExe(t)
	for _, args := range [][]string{
		{"context", "-"},
		{"validate", "-"},
		{"stats", "-"},
		{"redact", "--check", "-"},
		{"export", "md", "-"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd, stderr, done := startBlocked(t, exe, args...)
			start := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			code := waitExit(t, done, 2*time.Second)
			if took := time.Since(start); took > time.Second {
				t.Errorf("exit took %v, want under 1 s", took)
			}
			if code != exitInterrupted {
				t.Errorf("exit %d, want %d\n%s", code, exitInterrupted, stderr)
			}
			if n := strings.Count(stderr.String(), "pitool: error: interrupted\n"); n != 1 {
				t.Errorf("stderr says interrupted %d times, want once:\n%s", n, stderr)
			}
		})
	}
}

// TestSignalTwiceExitsAtOnce: a second SIGINT exits 130 without the grace
// period.
func TestSignalTwiceExitsAtOnce(t *testing.T) {
	exe := pitoolExe(t)
	cmd, stderr, done := startBlocked(t, exe, "context", "-")
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(50 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	code := waitExit(t, done, 2*time.Second)
	if took := time.Since(start); took > interruptGrace/2 {
		t.Errorf("exit took %v after two signals, want at once", took)
	}
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d\n%s", code, exitInterrupted, stderr)
	}
	if n := strings.Count(stderr.String(), "pitool: error: interrupted\n"); n != 1 {
		t.Errorf("stderr says interrupted %d times, want once:\n%s", n, stderr)
	}
}
