package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLineBytes is the longest line the scanner accepts. A longer line is a
// positioned error instead of an out-of-memory crash.
const MaxLineBytes = 256 << 20

const scanBufferBytes = 256 << 10

// scanStartBytes is the buffer a scanner starts with: a session of a few
// entries fits in it. Past that much input the scanner reads through a
// buffer of scanBufferBytes. Allocating (and clearing) scanBufferBytes for
// each of the several scans of each session was most of nightly's work
// over 10,000 sessions of 2 entries each (issue 28).
const scanStartBytes = 4 << 10

var bom = []byte{0xEF, 0xBB, 0xBF}

// Line is one physical line of a session file.
type Line struct {
	Num    int    // 1-based line number
	Offset int64  // byte offset of the line's first byte in the decompressed stream
	Bytes  []byte // content without the BOM, the final CR and the newline; valid until the next Scan
	Length int    // bytes the line occupies in the stream, newline included

	BOM          bool // the line started with a UTF-8 byte-order mark (first line only)
	CR           bool // the line ended in CRLF
	Unterminated bool // the stream ended without a newline after this line
}

// bomLen returns how many bytes of a byte-order mark precede the line's content.
func (l Line) bomLen() int {
	if l.BOM {
		return len(bom)
	}
	return 0
}

// Scanner reads a session stream line by line with positions. Framing details
// (BOM, CRLF, a missing final newline) are reported on each Line, never eaten
// silently.
type Scanner struct {
	name   string
	r      *bufio.Reader
	mapped *mapping // read from instead of r when set
	max    int
	line   Line
	offset int64
	num    int
	long   []byte
	err    error
	done   bool
	// bomFree is set for a scanner over the middle of a file, whose first
	// line cannot carry the file's byte-order mark.
	bomFree bool
}

// NewScanner returns a scanner over r; name is used in errors.
func NewScanner(r io.Reader, name string) *Scanner {
	return &Scanner{name: name, r: bufio.NewReaderSize(r, scanStartBytes), max: MaxLineBytes}
}

// SetMaxLineBytes changes the line length limit (for tests and callers with
// tighter memory bounds).
func (s *Scanner) SetMaxLineBytes(n int) { s.max = n }

// Scan advances to the next line. It returns false at the end of the stream or
// on an error, which Err reports.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	raw, err := s.readLine()
	if err != nil && !errors.Is(err, io.EOF) {
		s.fail(err)
		return false
	}
	if len(raw) == 0 && errors.Is(err, io.EOF) {
		s.done = true
		return false
	}
	s.num++
	s.line = Line{Num: s.num, Offset: s.offset, Length: len(raw)}
	s.offset += int64(len(raw))
	s.frame(raw)
	return true
}

func (s *Scanner) frame(raw []byte) {
	l := &s.line
	if raw[len(raw)-1] == '\n' {
		raw = raw[:len(raw)-1]
	} else {
		l.Unterminated = true
		s.done = true
	}
	if n := len(raw); n > 0 && raw[n-1] == '\r' {
		raw, l.CR = raw[:n-1], true
	}
	if l.Num == 1 && !s.bomFree && bytes.HasPrefix(raw, bom) {
		raw, l.BOM = raw[len(bom):], true
	}
	l.Bytes = raw
}

// readLine returns the next line including its newline. Lines longer than the
// buffer are assembled in s.long, up to the maximum.
func (s *Scanner) readLine() ([]byte, error) {
	if s.mapped != nil {
		return s.mappedLine()
	}
	if s.offset >= scanStartBytes && s.r.Size() < scanBufferBytes {
		// what the small buffer holds is read first, then the rest through
		// the large one
		s.r = bufio.NewReaderSize(s.r, scanBufferBytes)
	}
	chunk, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.long = append(s.long[:0], chunk...)
		for errors.Is(err, bufio.ErrBufferFull) && len(s.long) <= s.max {
			chunk, err = s.r.ReadSlice('\n')
			s.long = append(s.long, chunk...)
		}
		chunk = s.long
	}
	if len(chunk) > s.max {
		return nil, &PosError{File: s.name, Line: s.num + 1, Offset: s.offset, Err: ErrLineTooLong}
	}
	return chunk, err
}

// mappedLine is readLine over a mapped file: the line is a slice of the
// mapping. The previous line is no longer in use, so the pages before this
// one may be dropped.
func (s *Scanner) mappedLine() ([]byte, error) {
	s.mapped.release(int(s.offset))
	rest := s.mapped.data[s.offset:]
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n, err := bytes.IndexByte(rest, '\n')+1, error(nil)
	if n == 0 {
		n, err = len(rest), io.EOF
	}
	if n > s.max {
		return nil, &PosError{File: s.name, Line: s.num + 1, Offset: s.offset, Err: ErrLineTooLong}
	}
	return rest[:n], err
}

func (s *Scanner) fail(err error) {
	var pe *PosError
	if !errors.As(err, &pe) {
		err = &PosError{File: s.name, Line: s.num + 1, Offset: s.offset, Err: err}
	}
	s.err, s.done = err, true
}

// Line returns the current line.
func (s *Scanner) Line() Line { return s.line }

// Err returns the first error met, nil at a clean end of stream.
func (s *Scanner) Err() error { return s.err }
