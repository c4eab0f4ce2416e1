package jsonl

import (
	"errors"
	"fmt"
)

// PosError is an error at a position in a session file. Every layer wraps its
// errors in one, so the CLI can always say where a problem is.
type PosError struct {
	File   string // file name as given, "-" for standard input
	Line   int    // 1-based line number, 0 when unknown
	Offset int64  // byte offset of the line start in the decompressed stream
	Err    error
}

// Error formats the error as FILE:LINE (byte OFFSET): message.
func (e *PosError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d (byte %d): %v", e.File, e.Line, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *PosError) Unwrap() error { return e.Err }

// ErrLineTooLong is reported when a line exceeds the scanner's maximum length.
var ErrLineTooLong = errors.New("line exceeds the maximum line length")

// ErrCycle is reported when a parent chain loops back on itself.
var ErrCycle = errors.New("parent cycle")

// ErrNoHeader is reported when a file has no session header line.
var ErrNoHeader = errors.New("no session header")
