package main

import (
	"io"

	"github.com/pitool/pitool/internal/safefile"
)

// writeOutput sends what write produces to path: standard output for "" or
// "-", otherwise a new file written atomically. It refuses to write over any of
// the inputs.
func writeOutput(e *env, path string, inputs []string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(e.stdout)
	}
	for _, in := range inputs {
		if safefile.SameFile(in, path) {
			return usagef("output %s is an input file; use --in-place to replace it (a backup is kept)", path)
		}
	}
	return safefile.Create(path, write)
}
