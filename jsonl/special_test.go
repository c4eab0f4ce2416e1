package jsonl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesAFIFOWithoutWaiting: a FIFO with no writer, named where a
// session file was (a folder search saw a file, then the name was swapped),
// is refused at once as not a session, by Open and by the lister, where
// os.Open would have waited for a writer for ever.
func TestOpenRefusesAFIFOWithoutWaiting(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 2)
	go func() { _, err := Open(fifo, nil); done <- err }()
	go func() { _, err := new(Lister).ListFile(fifo, ListOptions{}); done <- err }()
	for range 2 {
		select {
		case err := <-done:
			if ns, ok := IsNotSession(err); !ok || ns.Reason != "a FIFO, not a regular file" {
				t.Errorf("open of a FIFO: %v, want not a Pi session (a FIFO, not a regular file)", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("open of a FIFO blocked")
		}
	}
}

// TestOpenReadsAPipeNamedByDescriptor: process substitution (a pipe named
// /dev/fd/N) is still read, to its end.
func TestOpenReadsAPipeNamedByDescriptor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	line := `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n"
	go func() {
		time.Sleep(50 * time.Millisecond) // the reader waits for the writer
		w.WriteString(line)
		w.Close()
	}()
	src, err := Open(fmt.Sprintf("/proc/self/fd/%d", r.Fd()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got, err := io.ReadAll(src.Reader())
	if err != nil || string(got) != line {
		t.Fatalf("read %q, %v; want the line the writer wrote", got, err)
	}
}

// TestOpenRefusesADevice: a device is not a session, named or found.
func TestOpenRefusesADevice(t *testing.T) {
	_, err := Open("/dev/zero", nil)
	if ns, ok := IsNotSession(err); !ok || ns.Reason != "a device, not a regular file" {
		t.Fatalf("open /dev/zero: %v", err)
	}
	if _, err := Open(t.TempDir(), nil); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("open of a folder: %v", err)
	}
}
