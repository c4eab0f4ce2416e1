//go:build !(linux || darwin || freebsd)

package jsonl

import (
	"errors"
	"os"
)

// mapFile reports that files are not mapped here: the index pass reads them.
func mapFile(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func dropPages([]byte) {}

func unmapFile([]byte) {}
