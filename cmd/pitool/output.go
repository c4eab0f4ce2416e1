package main

import (
	"io"

	"github.com/pitool/pitool/internal/safefile"
)

// writeOutput sends what write produces to path: standard output for "" or
// "-", otherwise through safefile.WriteFile (a device or FIFO is written
// directly, a symlink's target is written, a regular file is replaced
// atomically keeping its owner and mode, a new file is 0600). It refuses to
// write over any of the inputs.
func writeOutput(e *env, path string, inputs []string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(e.stdout)
	}
	for _, in := range inputs {
		if safefile.SameFile(in, path) {
			return usagef("output %s is an input file; use --in-place to replace it", path)
		}
	}
	return safefile.WriteFile(path, safefile.Options{}, write)
}
