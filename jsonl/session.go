package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// The bounds of the session check (see the package doc): it reads at most
// SniffBytes of a file's decompressed start and judges at most SniffLines
// lines that are not blank, so deciding costs the same for any file.
const (
	SniffLines = 64
	SniffBytes = 64 << 10
)

// sniffTypeRunes is how much of a foreign "type" value a reason quotes.
const sniffTypeRunes = 24

// NotSessionError is returned for a file that is not a Pi session. No
// command changes such a file.
type NotSessionError struct {
	File   string // file name as given, "-" for standard input
	Reason string // why, without any content beyond a clipped "type" value
}

// Error reads FILE: not a Pi session (REASON).
func (e *NotSessionError) Error() string { return e.File + ": " + e.Describe() }

// Describe is the error without the file name, for tables that show it.
func (e *NotSessionError) Describe() string { return "not a Pi session (" + e.Reason + ")" }

// IsNotSession reports whether err is or wraps a *NotSessionError, and
// returns it.
func IsNotSession(err error) (*NotSessionError, bool) {
	var ns *NotSessionError
	ok := errors.As(err, &ns)
	return ns, ok
}

// CheckSessionFile opens name and applies the session check to it. It
// reads at most SniffBytes (decompressed) and changes nothing. A name that is
// not a regular file (a FIFO, a device, standard input) is not opened, since
// reading it could block or consume what another reader needs: it passes, and
// Source.CheckSession judges its bytes when a command reads them.
func CheckSessionFile(name string) error {
	if info, err := os.Stat(name); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		return nil
	}
	src, err := Open(name, nil)
	if err != nil {
		return err
	}
	defer src.Close()
	return src.CheckSession()
}

// CheckSession applies the session check to the start of the decompressed
// stream without consuming it: Reader and ReaderAt still see every byte. It
// must be called before either. The error is a *NotSessionError, or a read
// error when the start cannot be read and does not show a session.
func (s *Source) CheckSession() error {
	prefix, complete, readErr := s.peek(SniffBytes)
	reason := judgeSession(prefix, complete)
	switch {
	case reason == "":
		return nil
	case readErr != nil:
		return &PosError{File: s.Name, Err: readErr}
	}
	return &NotSessionError{File: s.Name, Reason: reason}
}

// peek returns up to n bytes from the start of the decompressed stream,
// whether they are the whole stream, and a read error that cut them short.
func (s *Source) peek(n int) ([]byte, bool, error) {
	if s.Compression == Plain && s.Size >= 0 && s.Size < int64(n) {
		n = int(s.Size) + 1 // all of a small file, and its end: no larger buffer
	}
	br, ok := s.reader.(*bufio.Reader)
	if !ok || br.Size() < n {
		br = bufio.NewReaderSize(s.reader, n)
		s.reader = br
	}
	b, err := br.Peek(n)
	switch {
	case errors.Is(err, io.EOF):
		return b, true, nil
	case err != nil:
		return b, true, err
	}
	return b, false, nil
}

// lineKind is what the session check makes of one line.
type lineKind int

const (
	kindBlank  lineKind = iota // white space only
	kindNULs                   // NUL bytes (and white space) only: what a crash leaves
	kindBinary                 // a byte no text holds
	kindHeader                 // a session header
	kindEntry                  // a Pi entry
	kindOther                  // anything else; the verdict says what
)

// judgeSession applies the rule of the package doc to the start of a
// stream (complete: the whole stream). It returns "" for a session, else
// the reason it is not one.
func judgeSession(prefix []byte, complete bool) string {
	b := bytes.TrimPrefix(prefix, bom)
	at := len(prefix) - len(b)
	first, nuls, judged := "", false, 0
	for num := 1; len(b) > 0 && judged < SniffLines; num++ {
		line, rest, cut := nextLine(b, complete)
		kind, what := classifyLine(line, cut)
		switch kind {
		case kindHeader, kindEntry:
			return ""
		case kindBinary:
			return fmt.Sprintf("binary data at byte %d", at+binaryAt(line))
		case kindNULs:
			nuls = true
		case kindOther:
			if first == "" {
				first = fmt.Sprintf("line %d %s", num, what)
			}
		}
		if kind != kindBlank {
			judged++
		}
		at += len(b) - len(rest)
		b = rest
	}
	return verdict(first, nuls, complete && len(b) == 0, judged >= SniffLines)
}

// verdict is the reason for a start that held no header and no Pi entry;
// "" when it held nothing but blank lines (an empty session).
func verdict(first string, nuls, whole, manyLines bool) string {
	where := "no line is a Pi entry"
	switch {
	case manyLines:
		where = fmt.Sprintf("no Pi entry in the first %d lines", SniffLines)
	case !whole:
		where = fmt.Sprintf("no Pi entry in the first %d KiB", SniffBytes>>10)
	}
	switch {
	case first != "":
		return where + ": " + first
	case nuls:
		return where + ": only NUL bytes"
	case !whole:
		return where + ": only blank lines"
	}
	return ""
}

// nextLine splits off the first line of b, without its newline; cut is set
// when the line may go on beyond b.
func nextLine(b []byte, complete bool) (line, rest []byte, cut bool) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:], false
	}
	return b, nil, !complete
}

// classifyLine judges one line; cut lines are judged by their start.
func classifyLine(line []byte, cut bool) (lineKind, string) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	trimmed := bytes.Trim(line, " \t\r")
	switch {
	case len(trimmed) == 0:
		return kindBlank, ""
	case len(bytes.Trim(trimmed, " \t\r\x00")) == 0:
		return kindNULs, ""
	case binaryAt(line) >= 0:
		return kindBinary, ""
	case !cut && !validJSON(trimmed):
		return kindOther, "is not JSON"
	case trimmed[0] == '[':
		return kindOther, "is a JSON array, not an object"
	case trimmed[0] != '{':
		return kindOther, "is not a JSON object"
	}
	return classifyObject(topFields(trimmed))
}

// validJSON reports whether b is one JSON value as JSON.parse reads it, of
// any depth: the skimmer's rule, applied to b as the value of a member.
func validJSON(b []byte) bool {
	wrapped := append(append([]byte(`{"v":`), b...), '}')
	return new(lineSkimmer).skim(wrapped, &skim{}).OK()
}

// binaryAt returns the index of the first byte of b that text never holds
// (the control bytes file(1) calls binary: NUL, most C0 controls and DEL),
// or -1.
func binaryAt(b []byte) int {
	for i, c := range b {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\a' && c != '\b' && c != 0x1b) || c == 0x7f {
			return i
		}
	}
	return -1
}

// leadFields are the top-level fields the check reads of an object.
type leadFields struct {
	typ           *string // nil when absent
	typeNotString bool
	timestamp     bool // a string "timestamp"
	messageObject bool // an object "message"
}

// classifyObject judges an object by its fields.
func classifyObject(f leadFields) (lineKind, string) {
	switch {
	case f.typeNotString:
		return kindOther, `has a "type" that is not a string`
	case f.typ == nil:
		return kindOther, `is a JSON object without "type"`
	case *f.typ == TypeSession.String():
		return kindHeader, ""
	}
	t := ParseEntryType(*f.typ)
	switch {
	case t == TypeUnknown:
		return kindOther, "has type " + clipQuote(*f.typ)
	case !f.timestamp:
		return kindOther, "has type " + clipQuote(*f.typ) + ` but no "timestamp"`
	case t == TypeMessage && !f.messageObject:
		return kindOther, `has type "message" but no "message" object`
	}
	return kindEntry, ""
}

// clipQuote quotes the start of a value for a reason: the value is the
// file's content, so only a short piece of it is shown.
func clipQuote(s string) string {
	if utf8.RuneCountInString(s) <= sniffTypeRunes {
		return fmt.Sprintf("%q", s)
	}
	r := []rune(s)
	return fmt.Sprintf("%q…", string(r[:sniffTypeRunes]))
}

// topFields walks an object's top-level members, as far as the bytes go (a
// cut line ends early), and keeps the ones the check reads. JSON keys are
// matched exactly, and the last of repeated keys wins, as in JSON.parse.
func topFields(obj []byte) leadFields {
	var f leadFields
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return f
	}
	for dec.More() {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			return f
		}
		v, err := dec.Token()
		if err != nil {
			return f
		}
		f.note(key, v)
		if d, ok := v.(json.Delim); ok && !skipNested(dec, d) {
			return f
		}
	}
	return f
}

// note records a member the check reads.
func (f *leadFields) note(key string, v json.Token) {
	s, isString := v.(string)
	switch key {
	case "type":
		f.typ, f.typeNotString = nil, !isString
		if isString {
			f.typ = &s
		}
	case "timestamp":
		f.timestamp = isString
	case "message":
		f.messageObject = v == json.Delim('{')
	}
}

// skipNested consumes the rest of an array or object whose opening
// delimiter open was just read; false when the bytes end first.
func skipNested(dec *json.Decoder, open json.Delim) bool {
	if open != '{' && open != '[' {
		return true
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return true
}

// FileHeader is SessionHeader of the file name, opened without waiting
// and checked through its descriptor: a FIFO, device or socket (one swapped
// in since a folder was searched, or a process substitution, which only its
// one reader may consume) has no header here, nor does standard input.
func FileHeader(name string) (Header, bool) {
	if name == StdinName {
		return Header{}, false
	}
	f, info, err := openFile(name)
	if err != nil {
		return Header{}, false
	}
	defer f.Close()
	if !info.Mode().IsRegular() {
		return Header{}, false
	}
	return SessionHeader(name, f)
}

// SessionHeader reads the start of r (plain, gzip or zstd; at most
// SniffBytes of it, decompressed) and returns the session header its first
// line that is not blank holds, and whether that line is one: what makes a
// file an existing Pi session that a command must not write over. name is
// for messages only.
func SessionHeader(name string, r io.Reader) (Header, bool) {
	src, err := newSource(name, io.NopCloser(r), -1)
	if err != nil {
		return Header{}, false
	}
	prefix, complete, _ := src.peek(SniffBytes)
	b := bytes.TrimPrefix(prefix, bom)
	for len(b) > 0 {
		line, rest, cut := nextLine(b, complete)
		if cut {
			break // a header longer than the sniff is not read as one, so not classified
		}
		switch kind, _ := classifyLine(line, cut); {
		case kind == kindBlank:
			b = rest
			continue
		case kind == kindHeader:
			return readHeader(bytes.TrimSuffix(line, []byte{'\r'})), true
		}
		break
	}
	return Header{}, false
}
