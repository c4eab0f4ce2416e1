package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
	"unsafe"
)

// Lister reads the Listing of session files by one pass over their bytes:
// each line is checked as JSON.parse checks it and only the keys the row
// shows are looked at (no index, no decoded messages, no token estimate).
// It keeps its buffer from one file to the next, sized to the files it
// reads, so listing many small files allocates almost nothing. A Lister
// is not safe for concurrent use: give each worker its own. The zero value
// is ready to use.
type Lister struct {
	buf     []byte
	skimmer lineSkimmer
	skim    skim
}

// ListOptions say what ListFile reads.
type ListOptions struct {
	// Compressed lists a compressed file (gzip or zstd, known by its magic
	// bytes) too; without it ListFile returns ErrCompressed for one.
	Compressed bool
	// KeepCwd, when set, says whether to list a session of the header's
	// cwd: a file it refuses is not read past its header and gives
	// ErrOtherCwd.
	KeepCwd func(cwd string) bool
}

// ErrCompressed is ListFile's answer for a compressed file when
// ListOptions.Compressed is not set: Pi's /resume does not list one.
var ErrCompressed = errors.New("compressed session file")

// ErrOtherCwd is ListFile's answer for a session whose cwd
// ListOptions.KeepCwd refuses.
var ErrOtherCwd = errors.New("session of another cwd")

// UnlistedError is ListFile's answer for a session that Pi's listing reads
// but drops: a line it reads throws a TypeError in buildSessionInfo (a
// message entry without a message object, a user or assistant message whose
// content is neither a string nor an array, a content block that is null, a
// session name that is no string), and Pi leaves the whole file out.
type UnlistedError struct {
	Line   int    // 1-based
	Reason string // what the line holds
}

// Error says what Pi makes of the file.
func (e *UnlistedError) Error() string {
	return fmt.Sprintf("line %d %s, on which Pi's listing fails, so Pi does not list it", e.Line, e.Reason)
}

// Buffer sizes: a file is read in one piece when it fits the largest
// buffer kept between files, else through it, a buffer at a time (reading
// files of 25 MB costs 7-20% less CPU than mapping them, bench/README.md:
// no page faults and no unmapping, and the bytes are in the cache when
// they are parsed); a
// line longer than the buffer grows it (to at most MaxLineBytes), and a
// buffer grown past keptBufferBytes is dropped after the file, so that
// memory stays bounded by the longest line of the file being read, never
// by the file or the folder.
const (
	minBufferBytes  = 4 << 10
	keptBufferBytes = 256 << 10
)

// ListFile opens the file at path once and returns its Listing. A file
// that is not a Pi session gives a *NotSessionError, a compressed one
// ErrCompressed (unless opts.Compressed), a session of another cwd
// ErrOtherCwd, one whose first entry is no header ErrNoHeader; a file
// that cannot be read gives the read error.
func (l *Lister) ListFile(path string, opts ListOptions) (*Listing, error) {
	f, err := openListed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.isDir {
		return nil, &PosError{File: path, Err: fmt.Errorf("is a directory")}
	}
	defer l.release()
	lines, err := l.open(path, f, f.size, opts)
	if err != nil {
		return nil, err
	}
	defer func() { l.buf = lines.buf }()
	return l.list(lines, path, f.modTime, opts)
}

// release drops a buffer that one long line grew past what is kept.
func (l *Lister) release() {
	if cap(l.buf) > keptBufferBytes {
		l.buf = nil
	}
	l.skimmer.closers = l.skimmer.closers[:0]
}

// open returns the lines of the file f (size bytes on disk), with its
// first bytes read: the file itself when it is plain, else (with
// opts.Compressed) its inflated stream, through the same decompression
// limits as Open. A plain file is read up to the size it had when opened.
func (l *Lister) open(path string, f io.Reader, size int64, opts ListOptions) (*lineReader, error) {
	lines := &lineReader{r: f, buf: l.buffer(size), left: size}
	if err := lines.fill(); err != nil {
		return nil, &PosError{File: path, Err: err}
	}
	head := lines.pending(len(zstdMagic))
	if !bytes.HasPrefix(head, gzipMagic) && !bytes.HasPrefix(head, zstdMagic) {
		return lines, nil
	}
	if !opts.Compressed {
		return nil, ErrCompressed
	}
	read := bytes.Clone(lines.pending(lines.end))
	src, err := newSource(path, io.NopCloser(io.MultiReader(bytes.NewReader(read), f)), size)
	if err != nil {
		return nil, err
	}
	inflated := &lineReader{r: src.Reader(), buf: l.buffer(-1), left: -1}
	if err := inflated.fill(); err != nil {
		return nil, &PosError{File: path, Err: err}
	}
	return inflated, nil
}

// list reads the Listing of the file path (modified at modTime) from
// lines, whose first bytes are read.
func (l *Lister) list(lines *lineReader, path string, modTime time.Time, opts ListOptions) (*Listing, error) {
	if !l.startsWithHeader(lines) {
		if reason := judgeSession(lines.pending(SniffBytes), lines.eof); reason != "" {
			return nil, &NotSessionError{File: path, Reason: reason}
		}
	}
	row := &Listing{Path: path}
	acc := listingAccumulator{row: row}
	var header *Header
	for {
		line, err := lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &PosError{File: path, Err: err}
		}
		if header != nil {
			if reason := l.entry(line, &acc); reason != "" {
				return nil, &UnlistedError{Line: lines.num, Reason: reason}
			}
		} else if header, err = l.header(line, row, opts.KeepCwd); err != nil {
			return nil, err
		}
	}
	if header == nil {
		return nil, ErrNoHeader
	}
	row.FileSize = lines.consumed
	acc.finish(header.Timestamp, modTime)
	return row, nil
}

// startsWithHeader reports whether the first line read is a session
// header, which settles the session check (judgeSession) at once.
func (l *Lister) startsWithHeader(lines *lineReader) bool {
	head := lines.pending(lines.end)
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		if !lines.eof {
			return false
		}
		i = len(head)
	}
	l.skim = skim{}
	return l.skimmer.skim(bytes.TrimSuffix(head[:i], []byte{'\r'}), &l.skim).OK() && EntryTypeOf(l.skim.Type) == TypeSession
}

// buffer returns the Lister's buffer, sized to a stream of size bytes
// (plus one byte, to see its end in the same read; -1: unknown).
func (l *Lister) buffer(size int64) []byte {
	if size < 0 {
		size = keptBufferBytes
	}
	want := int(min(max(size+1, minBufferBytes), keptBufferBytes))
	if cap(l.buf) < want {
		l.buf = make([]byte, want)
	}
	return l.buf[:cap(l.buf)]
}

// header reads a line before the header. It returns the header when the
// line is one; nil and no error when Pi skips the line (white space, not
// JSON, or JSON's null, false, 0 or ""); ErrNoHeader when Pi's listing
// stops there (any other entry first); ErrOtherCwd when the header is of
// a cwd that keepCwd (when set) refuses.
func (l *Lister) header(line []byte, row *Listing, keepCwd func(string) bool) (*Header, error) {
	l.skim = skim{}
	if !l.skimmer.skim(line, &l.skim).OK() {
		if skippedBeforeHeader(line) {
			return nil, nil
		}
		return nil, ErrNoHeader
	}
	if EntryTypeOf(l.skim.Type) != TypeSession {
		return nil, ErrNoHeader
	}
	h := readHeader(line) // validated above, read as the index reads it
	if keepCwd != nil && !keepCwd(h.Cwd) {
		return nil, ErrOtherCwd
	}
	row.ID, row.Cwd, row.ParentSessionPath = h.ID, h.Cwd, h.ParentSession
	return &h, nil
}

// skippedBeforeHeader reports whether Pi's listing passes over a line that
// is not a JSON object when no header came yet: one JSON.parse refuses, or
// a value that is falsy (null, false, 0, ""). Any other value (a number, a
// string, an array, true) is an entry that is not a header.
func skippedBeforeHeader(line []byte) bool {
	v := bytes.Trim(line, " \t\r\n")
	if len(v) == 0 || !validJSON(v) {
		return true
	}
	switch v[0] {
	case 'n', 'f':
		return true
	case '"':
		return len(v) == 2
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, ok := numberValue(v)
		return ok && n == 0
	}
	return false
}

// entry reads a line after the header into acc: only messages and
// session_info entries change a Listing. It returns why Pi's listing fails
// on the line, or "".
func (l *Lister) entry(line []byte, acc *listingAccumulator) string {
	l.skim = skim{}
	if !l.skimmer.skim(line, &l.skim).OK() {
		return ""
	}
	acc.row.Entries++
	s := &l.skim
	switch EntryTypeOf(s.Type) {
	case TypeMessage:
		if s.Message == nil || IsNull(s.Message) {
			return `is a message entry whose "message" is null or absent`
		}
		if s.Message[0] != '{' {
			acc.addMessage(NoRole, nil, nil, "")
			return ""
		}
		role := RoleOf(s.Msg.Role)
		if reason := l.unlistedContent(line, role, s.Msg.Content); reason != "" {
			return reason
		}
		acc.addMessage(role, s.Msg.Content, s.Msg.Timestamp, rawText(s.Timestamp))
	case TypeSessionInfo:
		var named struct {
			Name RawMessage `json:"name"`
		}
		Unmarshal(line, &named) // validated above
		if len(named.Name) == 0 || IsNull(named.Name) {
			acc.setName(nil)
			return ""
		}
		name, ok := DecodeString(named.Name)
		if !ok {
			return "has a session name that is not a string"
		}
		acc.setName(&name)
	}
	return ""
}

// unlistedContent says why Pi's extractTextContent fails on the content of
// a message of role in line (content is a slice of line, which the
// skimmer parsed last), or "": it reads a user or assistant message's
// content as a string or an array of blocks, and a null block throws.
func (l *Lister) unlistedContent(line []byte, role Role, content []byte) string {
	if (role != UserRole && role != AssistantRole) || len(content) == 0 || content[0] == '"' {
		return ""
	}
	if content[0] != '[' {
		return "has a message of role " + role.String() + " whose content is neither text nor a list of blocks"
	}
	if l.skimmer.nullElement(line, cap(line)-cap(content)) {
		return "has a message of role " + role.String() + " with a null content block"
	}
	return ""
}

// nullElement reports whether the array at b[at], which parsed with the
// string map of b built, has a null element: an 'n' right after the
// array's own '[' or one of its own commas. It steps over strings by the
// map and counts brackets, without parsing what it passes again (the
// parse has checked it).
func (ls *lineSkimmer) nullElement(b []byte, at int) bool {
	delims := ls.strings.delims
	depth := 0
	for i := at; ; i++ {
		switch b[i] {
		case '"':
			i = closingQuote(delims, i)
		case '[', '{':
			if depth++; depth == 1 && b[skipSpace(b, i+1)] == 'n' {
				return true
			}
		case ']', '}':
			if depth--; depth == 0 {
				return false
			}
		case ',':
			if depth == 1 && b[skipSpace(b, i+1)] == 'n' {
				return true
			}
		}
	}
}

// rawText is the text of a raw JSON string, "" for any other value. It
// does not copy a string without escapes: the result lives as long as raw.
func rawText(raw []byte) string {
	inner, ok := textBytes(raw)
	if !ok || len(inner) == 0 {
		return ""
	}
	return unsafe.String(&inner[0], len(inner))
}

// lineReader cuts a stream into lines as Pi's listing reads them (Node's
// readline): a CR before a newline is not part of a line, and a last line
// without a newline is a line. Unlike the index's Scanner it keeps a
// byte-order mark: Pi's listing hands it to JSON.parse, which refuses the
// line, so a file that starts with one is not listed. It reads into one
// buffer, grown only for a line longer than it.
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int   // the unread bytes: buf[start:end]
	left       int64 // bytes still to read before the end, -1 when unknown
	consumed   int64 // bytes of the stream returned as lines so far
	num        int   // lines returned so far
	eof        bool
}

// fill reads until the buffer is full or the stream ends.
func (lr *lineReader) fill() error {
	if lr.start > 0 {
		lr.end = copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.start = 0
	}
	for lr.end < len(lr.buf) && !lr.eof {
		n, err := lr.r.Read(lr.buf[lr.end:])
		lr.end += n
		if lr.left >= 0 {
			lr.left -= int64(n)
		}
		switch {
		case err == io.EOF, lr.left == 0: // a plain file: no read to learn it ended
			lr.eof = true
		case err != nil:
			return err
		}
	}
	return nil
}

// pending returns up to n of the unread bytes.
func (lr *lineReader) pending(n int) []byte {
	return lr.buf[lr.start:min(lr.end, lr.start+n)]
}

// next returns the next line, valid until the next call, or io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(lr.buf[lr.start:lr.end], '\n'); i >= 0 {
			return lr.take(i, i+1), nil
		}
		if lr.eof {
			if lr.start == lr.end {
				return nil, io.EOF
			}
			n := lr.end - lr.start
			return lr.take(n, n), nil
		}
		if lr.start == 0 && lr.end == len(lr.buf) {
			if len(lr.buf) >= MaxLineBytes {
				return nil, fmt.Errorf("line longer than %d bytes", MaxLineBytes)
			}
			grown := make([]byte, min(2*len(lr.buf), MaxLineBytes+1))
			copy(grown, lr.buf[:lr.end])
			lr.buf = grown
		}
		if err := lr.fill(); err != nil {
			return nil, err
		}
	}
}

// take returns the n bytes at the read position as a line, framing bytes
// removed, and moves past length bytes.
func (lr *lineReader) take(n, length int) []byte {
	line := lr.buf[lr.start : lr.start+n]
	lr.start += length
	lr.consumed += int64(length)
	lr.num++
	if n < length {
		line = bytes.TrimSuffix(line, []byte{'\r'})
	}
	return line
}
