package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{"512": 512, "64KB": 64 << 10, "100MB": 100 << 20, "1.5gb": 3 << 29, "2m": 2 << 20, "10 B": 10}
	for in, want := range good {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "-1MB", "0", "ten", "1TB", "99999999GB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) succeeded", in)
		}
	}
}

func TestRunWritesFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"-size", "64KB", "-seed", "3", "-branch-every", "20", "-compaction-every", "40", "-unicode", "-o", out}, nil, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	info, err := os.Stat(out)
	if err != nil || info.Size() < 64<<10 {
		t.Fatalf("output: %v, %v", info, err)
	}
	if !strings.Contains(stderr.String(), "gensession: wrote "+out) {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestRunStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"-entries", "20", "-tool-heavy", "-o", "-"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), "\n"); n != 21 {
		t.Errorf("%d lines, want header + 20 entries", n)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-size", "lots", "-o", "-"}, {"-size", "1MB", "-entries", "3", "-o", "-"}, {"-o", "-", "extra"}, {"-bogus"}} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, nil, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-help"}, nil, &stderr); code != exitOK || !strings.Contains(stderr.String(), "Examples:") {
		t.Errorf("-help: exit %d: %s", code, stderr.String())
	}
}

func TestRunInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	if code := run(ctx, []string{"-size", "4MB", "-o", filepath.Join(dir, "s.jsonl")}, nil, &stderr); code != exitInterrupted {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left after an interrupt: %v", left)
	}
}
