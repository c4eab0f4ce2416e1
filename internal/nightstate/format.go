package nightstate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The state file's layout: a first line naming it, its version and the
// settings, then one line per file:
//
//	pitool-nightly-state 2 "SETTINGS"
//	SIZE MTIME_NS CTIME_NS INO DEV TOKENS_BEFORE "ACTION" "DETAIL" "FILE"
//
// numbers in decimal, strings quoted as Go quotes them (strconv.Quote), so
// that any byte of a path or a detail round-trips. It replaced a JSON
// document whose decoding was a tenth of a run over 10,000 files unchanged
// (issue 28): a line is read with no reflection and its strings, without an
// escape, are slices of the file's text.
const magic = "pitool-nightly-state"

// encode appends sf in the state file's layout to dst.
func encode(dst []byte, sf *file) []byte {
	dst = append(dst, magic+" "...)
	dst = strconv.AppendInt(dst, int64(sf.Version), 10)
	dst = strconv.AppendQuote(append(dst, ' '), sf.Settings)
	dst = append(dst, '\n')
	for _, e := range sf.Files {
		for _, n := range [...]int64{e.Size, e.MtimeNs, e.CtimeNs, int64(e.Ino), int64(e.Dev), int64(e.TokensBefore)} { //nolint:gosec // inode and device numbers round-trip through int64
			dst = append(strconv.AppendInt(dst, n, 10), ' ')
		}
		dst = strconv.AppendQuote(dst, e.Action)
		dst = strconv.AppendQuote(append(dst, ' '), e.Detail)
		dst = strconv.AppendQuote(append(dst, ' '), e.File)
		dst = append(dst, '\n')
	}
	return dst
}

// errLayout is a state file that is not in this layout (a file of another
// kind, or cut short).
var errLayout = errors.New("not a pitool nightly state file")

// decode reads a state file. A file of another version gives its version
// and settings, and no entries.
func decode(text string) (*file, error) {
	head, rest, ok := strings.Cut(text, "\n")
	var sf file
	if !ok {
		return nil, errLayout
	}
	v, settings, err := decodeHead(head)
	if err != nil {
		return nil, err
	}
	sf.Version, sf.Settings = v, settings
	if v != version {
		return &sf, nil
	}
	sf.Files = make([]Entry, 0, strings.Count(text, "\n")-1)
	for n := 2; rest != ""; n++ {
		var line string
		if line, rest, ok = strings.Cut(rest, "\n"); !ok {
			return nil, fmt.Errorf("line %d: %w (no end of line)", n, errLayout)
		}
		e, err := decodeEntry(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		sf.Files = append(sf.Files, e)
	}
	return &sf, nil
}

func decodeHead(head string) (int, string, error) {
	rest, ok := strings.CutPrefix(head, magic+" ")
	if !ok {
		return 0, "", errLayout
	}
	field, rest, _ := strings.Cut(rest, " ")
	v, err := strconv.Atoi(field)
	if err != nil {
		return 0, "", errLayout
	}
	settings, rest, err := quoted(rest)
	if err != nil || rest != "" {
		return 0, "", errLayout
	}
	return v, settings, nil
}

func decodeEntry(line string) (Entry, error) {
	var n [6]int64
	for i := range n {
		field, rest, ok := strings.Cut(line, " ")
		v, err := parseInt(field)
		if !ok || err != nil {
			return Entry{}, errLayout
		}
		n[i], line = v, rest
	}
	e := Entry{Stamp: Stamp{Size: n[0], MtimeNs: n[1], CtimeNs: n[2], Ino: uint64(n[3]), Dev: uint64(n[4])}, TokensBefore: int(n[5])} //nolint:gosec // as encode wrote them
	var err error
	for i, s := range []*string{&e.Action, &e.Detail, &e.File} {
		if i > 0 {
			if line, err = cutSpace(line); err != nil {
				return Entry{}, err
			}
		}
		if *s, line, err = quoted(line); err != nil {
			return Entry{}, err
		}
	}
	if line != "" {
		return Entry{}, errLayout
	}
	return e, nil
}

// quoted reads the Go-quoted string s starts with. A string with no escape
// (a path, mostly) is the text up to the next quote, a slice of s.
func quoted(s string) (string, string, error) {
	if len(s) > 1 && s[0] == '"' {
		if j := strings.IndexByte(s[1:], '"'); j >= 0 && strings.IndexByte(s[1:1+j], '\\') < 0 {
			return s[1 : 1+j], s[2+j:], nil
		}
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", errLayout
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", "", errLayout
	}
	return v, s[len(q):], nil
}

// parseInt reads a decimal int64 as strconv.ParseInt does, at twice its
// speed: up to 19 digits (any size, a time in nanoseconds) add up in a
// uint64 without overflow; longer ones go to ParseInt.
func parseInt(s string) (int64, error) {
	digits, neg := s, false
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits, neg = digits[1:], digits[0] == '-'
	}
	if len(digits) == 0 || len(digits) > 19 {
		return strconv.ParseInt(s, 10, 64)
	}
	var v uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, errLayout
		}
		v = v*10 + uint64(c-'0')
	}
	switch {
	case neg && v <= 1<<63:
		return -int64(v), nil //nolint:gosec // -(1<<63) wraps to itself, the smallest int64
	case !neg && v < 1<<63:
		return int64(v), nil
	}
	return 0, errLayout
}

func cutSpace(s string) (string, error) {
	rest, ok := strings.CutPrefix(s, " ")
	if !ok {
		return "", errLayout
	}
	return rest, nil
}
