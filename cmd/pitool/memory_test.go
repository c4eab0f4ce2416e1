package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// maxRSSKB is the peak resident memory a command may reach on a file of
// 20 MB of blank lines: lines that are not entries cost a counter.
const maxRSSKB = 150 << 10

const memHeader = `{"type":"session","version":3,"id":"m1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n"

// measured is what one measured run of pitool gave.
type measured struct {
	Code   int
	Stderr string
	RSSKB  int64
	Took   time.Duration
	CPU    time.Duration // user and system time of the child
}

// launchEnv carries, to the launcher, the arguments of the pitool run to
// measure.
const launchEnv = "PITOOL_TEST_MEASURE_ARGS"

// runMeasured runs the real pitool binary in dir and returns its exit
// code, stderr, peak RSS and time. On Linux a child's peak RSS starts at its
// parent's peak (the fork shares the parent's memory until the exec), so the
// run is launched from a fresh, small copy of this test binary
// (TestMeasureLauncher), not from this process, which other tests may have
// grown.
func runMeasured(t *testing.T, dir string, args ...string) measured {
	t.Helper()
	return runMeasuredEnv(t, dir, nil, args...)
}

// runMeasuredEnv is runMeasured with env (NAME=value) added to pitool's
// environment.
func runMeasuredEnv(t *testing.T, dir string, env []string, args ...string) measured {
	t.Helper()
	enc, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMeasureLauncher$")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), launchEnv+"="+string(enc), "TMPDIR="+dir)
	out, err := cmd.CombinedOutput()
	_, line, ok := strings.Cut(string(out), "MEASURED ")
	var m measured
	if !ok || json.Unmarshal([]byte(strings.SplitN(line, "\n", 2)[0]), &m) != nil {
		t.Fatalf("pitool %v: launcher: %v\n%s", args, err, out)
	}
	return m
}

// TestMeasureLauncher runs pitool once when launchEnv is set (see
// runMeasured) and prints what it measured; otherwise it does nothing.
func TestMeasureLauncher(t *testing.T) {
	var args []string
	if json.Unmarshal([]byte(os.Getenv(launchEnv)), &args) != nil {
		t.Skip("only a launcher for runMeasured")
	}
	cmd := exec.Command("pitool", args...) // testscript put pitool on $PATH
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	m := measured{Code: cmd.ProcessState.ExitCode(), Stderr: stderr.String(), Took: time.Since(start),
		RSSKB: cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	enc, _ := json.Marshal(m)
	fmt.Printf("MEASURED %s\n", enc)
}

// TestMemoryBoundedByEntries: a header plus 20 MB of blank lines stays under
// maxRSSKB for every command that reads a whole session.
func TestMemoryBoundedByEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 20 MB per command")
	}
	dir := t.TempDir()
	writeBlankLines(t, filepath.Join(dir, "s.jsonl"), 20<<20)
	for _, args := range [][]string{
		{"validate", "s.jsonl"}, {"repair", "--force", "-o", "out.jsonl", "s.jsonl"}, {"context", "s.jsonl"},
		{"info", "s.jsonl"}, {"tree", "s.jsonl"}, {"redact", "-o", "red.jsonl", "s.jsonl"}, {"compact", "--plan", "s.jsonl"},
	} {
		m := runMeasured(t, dir, args...)
		t.Logf("pitool %s: exit %d, %d KB peak RSS, %v", strings.Join(args, " "), m.Code, m.RSSKB, m.Took.Round(time.Millisecond))
		if m.Code > 1 {
			t.Errorf("pitool %v: exit %d: %s", args, m.Code, m.Stderr)
		}
		if m.RSSKB > maxRSSKB {
			t.Errorf("pitool %v: %d KB peak RSS, more than %d KB", args, m.RSSKB, maxRSSKB)
		}
	}
	if out, _ := os.ReadFile(filepath.Join(dir, "out.jsonl")); string(out) != memHeader {
		t.Errorf("repair kept %d bytes, want the header alone", len(out))
	}
}

// writeBlankLines writes a header and n newlines, a megabyte at a time: on
// Linux a child's peak RSS counts its parent's at the fork, so this test
// keeps its own small.
func writeBlankLines(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(memHeader)
	block := bytes.Repeat([]byte{'\n'}, 1<<20)
	for ; n > 0; n -= len(block) {
		if _, err := f.Write(block[:min(n, len(block))]); err != nil {
			t.Fatal(err)
		}
	}
}

// writeBomb writes a .gz or .zst of 2 GiB of newlines after a header: one
// small compressed member of 1 MiB of newlines, repeated, so it is made fast
// and stays small on disk.
func writeBomb(t *testing.T, path string) {
	t.Helper()
	var member, head bytes.Buffer
	newlines := bytes.Repeat([]byte{'\n'}, 1<<20)
	if strings.HasSuffix(path, ".gz") {
		for b, text := range map[*bytes.Buffer][]byte{&member: newlines, &head: []byte(memHeader)} {
			zw, _ := gzip.NewWriterLevel(b, gzip.BestCompression)
			zw.Write(text)
			zw.Close()
		}
	} else {
		for b, text := range map[*bytes.Buffer][]byte{&member: newlines, &head: []byte(memHeader)} {
			zw, _ := zstd.NewWriter(b)
			zw.Write(text)
			zw.Close()
		}
	}
	if err := os.WriteFile(path, append(head.Bytes(), bytes.Repeat(member.Bytes(), 2048)...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDecompressionBombRefused: 2 GiB of newlines in a small .gz or .zst is
// refused quickly, with the named limit, by commands that stream and by
// commands that spool, and memory stays bounded.
func TestDecompressionBombRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates a few hundred MB per command")
	}
	dir := t.TempDir()
	for _, name := range []string{"bomb.jsonl.gz", "bomb.jsonl.zst"} {
		writeBomb(t, filepath.Join(dir, name))
		for _, cmd := range [][]string{{"validate"}, {"context"}, {"info"}, {"tree"}, {"repair", "--force", "-o", "out.jsonl"}, {"redact", "-o", "red.jsonl"}} {
			args := append(cmd, name)
			m := runMeasured(t, dir, args...)
			t.Logf("pitool %s: exit %d, %d KB peak RSS, %v: %s", strings.Join(args, " "), m.Code, m.RSSKB, m.Took.Round(time.Millisecond), strings.TrimSpace(m.Stderr))
			if m.Code != 2 || !strings.Contains(m.Stderr, name+": decompresses to more than ") || !strings.Contains(m.Stderr, "PITOOL_MAX_DECOMPRESSED_BYTES") {
				t.Errorf("pitool %v: exit %d, stderr %q", args, m.Code, m.Stderr)
			}
			if m.RSSKB > maxRSSKB || m.Took > 30*time.Second {
				t.Errorf("pitool %v: %d KB peak RSS in %v", args, m.RSSKB, m.Took)
			}
			for _, out := range []string{"out.jsonl", "red.jsonl"} {
				if _, err := os.Stat(filepath.Join(dir, out)); err == nil {
					t.Errorf("pitool %v left %s", args, out)
				}
			}
		}
	}
}
