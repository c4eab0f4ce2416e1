package main

import (
	"io"
	"os"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// writeOutput sends what write produces to path: standard output for "" or
// "-", otherwise through safefile.WriteFile (a device or FIFO is written
// directly, a symlink's target is written, a regular file is replaced
// atomically keeping its owner and mode, a new file is 0600). It refuses to
// write over any of the inputs.
func writeOutput(e *env, path string, inputs []string, write func(io.Writer) error) error {
	return writeChecked(e, path, inputs, false, write)
}

// writeNewOutput is writeOutput for an output that makes something new (a
// clone, a fork, an export), which also refuses to write over another Pi
// session: a conversation someone keeps is never replaced by a copy of
// another one.
func writeNewOutput(e *env, path string, inputs []string, write func(io.Writer) error) error {
	return writeChecked(e, path, inputs, true, write)
}

func writeChecked(e *env, path string, inputs []string, keepSessions bool, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(e.stdout)
	}
	for _, in := range inputs {
		if safefile.SameFile(in, path) {
			return usagef("output %s is an input file: pitool never writes over its input (redact replaces one with --in-place)", path)
		}
	}
	if keepSessions && isPiSession(path) {
		return usagef("output %s is a Pi session already: pitool never writes over one; name a new file, or remove it first", path)
	}
	return safefile.WriteFile(path, safefile.Options{}, write)
}

// isPiSession reports whether path is an existing regular file that holds a
// Pi session (jsonl's one definition).
func isPiSession(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && jsonl.CheckSessionFile(path) == nil
}
