package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"testing"
	"testing/iotest"
)

// FuzzScanner reads any bytes, with a line limit of 1 to 64 bytes, through
// the scanner's two paths: a reader (a 16-byte buffer fed one byte at a
// time, so that lines are assembled from pieces) and a mapping. Both give
// the same lines; the lines' framing (BOM, CR, newline) and lengths rebuild
// the input byte for byte, at the offsets and numbers they report; and both
// stop with ErrLineTooLong exactly at the first line, newline included,
// longer than the limit.
func FuzzScanner(f *testing.F) {
	f.Add([]byte("\xEF\xBB\xBF{\"a\":1}\r\n{}\n\nlast"), uint8(8))
	f.Add([]byte("\r\n\r\r\n\xEF\xBB\xBF\n"), uint8(0))
	f.Add(bytes.Repeat([]byte("x"), 70), uint8(63))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		max := 1 + int(limit)%64
		read := &Scanner{name: "r", r: bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(data)), 16), max: max}
		mapped := &Scanner{name: "m", mapped: &mapping{data: data}, max: max}
		lines, err := scanLines(read)
		mlines, merr := scanLines(mapped)
		if len(lines) != len(mlines) || (err == nil) != (merr == nil) {
			t.Fatalf("reader: %d lines, %v; mapping: %d lines, %v", len(lines), err, len(mlines), merr)
		}
		var rebuilt []byte
		for k, l := range lines {
			if m := mlines[k]; l.Num != m.Num || l.Offset != m.Offset || !bytes.Equal(l.Bytes, m.Bytes) || l.framing() != m.framing() {
				t.Fatalf("line %d: reader %+v, mapping %+v", k+1, l, m)
			}
			if l.Num != k+1 || l.Offset != int64(len(rebuilt)) || (l.BOM && k > 0) || (l.Unterminated && k < len(lines)-1) {
				t.Fatalf("line %d: %+v after %d bytes", k+1, l, len(rebuilt))
			}
			start := len(rebuilt)
			rebuilt = l.appendRaw(rebuilt)
			if len(rebuilt)-start != l.Length || l.Length > max {
				t.Fatalf("line %d: %+v rebuilds to %d bytes (limit %d)", k+1, l, len(rebuilt)-start, max)
			}
		}
		if !bytes.HasPrefix(data, rebuilt) {
			t.Fatalf("lines rebuild %q, not a prefix of %q", rebuilt, data)
		}
		rest := data[len(rebuilt):]
		next := bytes.IndexByte(rest, '\n') + 1
		if next == 0 {
			next = len(rest)
		}
		if tooLong := next > max; tooLong != (err != nil) || (err != nil && (!errors.Is(err, ErrLineTooLong) || !errors.Is(merr, ErrLineTooLong))) || (err == nil && len(rest) > 0) {
			t.Fatalf("after %d bytes, a %d-byte line (limit %d): reader %v, mapping %v", len(rebuilt), next, max, err, merr)
		}
	})
}

func scanLines(s *Scanner) ([]Line, error) {
	var lines []Line
	for s.Scan() {
		l := s.Line()
		l.Bytes = bytes.Clone(l.Bytes)
		lines = append(lines, l)
	}
	return lines, s.Err()
}

func (l Line) framing() [3]bool { return [3]bool{l.BOM, l.CR, l.Unterminated} }

// appendRaw appends the line as it was in the stream.
func (l Line) appendRaw(dst []byte) []byte {
	if l.BOM {
		dst = append(dst, bom...)
	}
	dst = append(dst, l.Bytes...)
	if l.CR {
		dst = append(dst, '\r')
	}
	if !l.Unterminated {
		dst = append(dst, '\n')
	}
	return dst
}
