package jsonl

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Writer writes session lines, compressed like the input when asked. Each
// line is written as given (raw bytes of an untouched entry) or encoded from
// an Object in JSON.stringify's form.
type Writer struct {
	bw   *bufio.Writer
	comp io.WriteCloser // the compressor, nil for plain output
}

// CompressionForName is the compression an output named name is written
// with: a name ending in .gz is gzip, .zst is zstd, anything else plain;
// standard output ("-") is plain. This is the one rule for every output a
// user names; a file rewritten in place keeps the compression its bytes
// have instead (Source.Compression), so that its name and content never
// disagree more than they did.
func CompressionForName(name string) Compression {
	switch {
	case name == StdinName:
		return Plain
	case strings.HasSuffix(name, ".gz"):
		return Gzip
	case strings.HasSuffix(name, ".zst"):
		return Zstd
	}
	return Plain
}

// NewWriter returns a Writer on w with the given compression.
func NewWriter(w io.Writer, c Compression) (*Writer, error) {
	out := &Writer{}
	switch c {
	case Gzip:
		out.comp = gzip.NewWriter(w)
	case Zstd:
		zw, err := zstd.NewWriter(w)
		if err != nil {
			return nil, fmt.Errorf("zstd writer: %w", err)
		}
		out.comp = zw
	}
	if out.comp != nil {
		w = out.comp
	}
	out.bw = bufio.NewWriterSize(w, 256<<10)
	return out, nil
}

// WriteLine writes raw followed by a newline.
func (w *Writer) WriteLine(raw []byte) error {
	if _, err := w.bw.Write(raw); err != nil {
		return err
	}
	return w.bw.WriteByte('\n')
}

// WriteObject encodes o in JSON.stringify's form and writes it as a line.
func (w *Writer) WriteObject(o Object) error { return w.WriteLine(o.AppendJSON(nil)) }

// Write writes bytes as they are (for framing that is not a whole line).
func (w *Writer) Write(p []byte) (int, error) { return w.bw.Write(p) }

// Close flushes buffered lines and finishes the compressed stream. It does not
// close the underlying writer.
func (w *Writer) Close() error {
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if w.comp != nil {
		return w.comp.Close()
	}
	return nil
}
