package termtext

import (
	"bytes"
	"io"
)

// Writer passes what is written to it on to a terminal a line at a time,
// each line through VisibleText, so that text from a session written in
// pieces still cannot control the terminal. Close writes a last line that
// has no line feed.
type Writer struct {
	w       io.Writer
	pending []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes every whole line of p (and of what came before it) made
// visible, and keeps the rest for the next Write or Close.
func (v *Writer) Write(p []byte) (int, error) {
	v.pending = append(v.pending, p...)
	end := bytes.LastIndexByte(v.pending, '\n')
	if end < 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(v.w, VisibleText(string(v.pending[:end+1]))); err != nil {
		return 0, err
	}
	v.pending = append(v.pending[:0], v.pending[end+1:]...)
	return len(p), nil
}

// Close writes what is left, made visible.
func (v *Writer) Close() error {
	if len(v.pending) == 0 {
		return nil
	}
	_, err := io.WriteString(v.w, VisibleText(string(v.pending)))
	v.pending = nil
	return err
}
