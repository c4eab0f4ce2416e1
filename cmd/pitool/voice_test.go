package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

func TestFileErrorNamesThePathOnce(t *testing.T) {
	_, errOpen := os.Open("/nonexistent/s.jsonl")
	cases := []struct {
		path string
		err  error
		want string
	}{
		{"/nonexistent/s.jsonl", errOpen, "/nonexistent/s.jsonl: no such file or directory"},
		{"/nonexistent/s.jsonl", fmt.Errorf("/nonexistent/s.jsonl: %w", errOpen), "/nonexistent/s.jsonl: no such file or directory"},
		{"/nonexistent/s.jsonl", fmt.Errorf("repair: %w", errOpen), "/nonexistent/s.jsonl: repair: no such file or directory"},
		{"s.jsonl", fmt.Errorf("summarize: %w", context.Canceled), "s.jsonl: interrupted"},
		// the path inside a phrase stays: "append to no space left" was the message once
		{"s.jsonl", fmt.Errorf("append to s.jsonl: %w", &os.PathError{Op: "write", Path: "s.jsonl", Err: syscall.ENOSPC}),
			"s.jsonl: append to s.jsonl: no space left on device"},
		{"s.jsonl", fmt.Errorf("sync s.jsonl: %w", &os.PathError{Op: "sync", Path: "s.jsonl", Err: syscall.EIO}),
			"s.jsonl: sync s.jsonl: input/output error"},
		{"s.jsonl", errors.Join(fmt.Errorf("close: %w", errOpen), errors.New("write: disk full")),
			"s.jsonl: close: /nonexistent/s.jsonl: no such file or directory\nwrite: disk full"},
		{"/nonexistent/s.jsonl", fmt.Errorf("%w (while reading)", errOpen),
			"/nonexistent/s.jsonl: open /nonexistent/s.jsonl: no such file or directory (while reading)"},
		{"t.jsonl.gz", &jsonl.PosError{File: "t.jsonl.gz", Line: 3, Offset: 284, Err: io.ErrUnexpectedEOF},
			"t.jsonl.gz:3 (byte 284): compressed stream ends early (truncated file)"},
	}
	for _, c := range cases {
		if got := fileError(c.path, c.err); got != c.want {
			t.Errorf("fileError(%q, %v) = %q, want %q", c.path, c.err, got, c.want)
		}
	}
}

func TestOneLineIsOneLowercaseLine(t *testing.T) {
	cases := map[string]string{
		"No help topic for 'd'.":                 "no help topic for 'd'",
		"OPENAI_API_KEY is not set":              "OPENAI_API_KEY is not set",
		"README.md: gone":                        "README.md: gone",
		"first\nsecond":                          "first; second",
		"Pi cannot open it":                      "Pi cannot open it",
		"a  b/two  spaces.jsonl: x\r\n  more.\n": "a  b/two  spaces.jsonl: x; more",
	}
	for in, want := range cases {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
