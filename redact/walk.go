package redact

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pitool/pitool/jsonl"
)

// freeForm reports whether key starts data whose shape belongs to a tool or
// an extension: inside it no key has Pi's meaning (a "type" there is data,
// and a signature there is not dropped).
func freeForm(key []byte) bool {
	switch string(key) {
	case "arguments", "details", "data", "input", "sections":
		return true
	}
	return false
}

// opaque reports whether key holds a provider's signature; --drop-signatures
// removes them.
func opaque(key []byte) bool {
	switch string(key) {
	case "thinkingSignature", "thoughtSignature", "textSignature":
		return true
	}
	return false
}

// errSyntax marks a line that is not well-formed JSON.
var errSyntax = errors.New("invalid JSON")

// edit replaces line[start:end] with repl.
type edit struct {
	start, end int
	repl       []byte
}

// seg is one step of a JSON path: an object key (raw bytes a:b of the line,
// b > 0, or renames[renamed-1] when the key held a secret) or an array
// index. It is 16 bytes, as a line nested a million deep has a million.
type seg struct {
	a, b, idx int32 // a line is at most jsonl.MaxLineBytes
	renamed   int32 // 0: the key is as written
}

// memberKey is one key of an object being walked: its raw bytes a:b and,
// when it held a secret, its new text and the index of its edit.
type memberKey struct {
	a, b  int
	edit  int // -1: unchanged
	final string
}

// hit is a replacement whose finding waits for the path to be known.
type hit struct{ rule, secret, placeholder string }

// walker rewrites one line: it visits every string, scans those the
// prefilter points at, and collects edits and findings.
type walker struct {
	r         *Redactor
	sc        *scanner
	line      []byte
	muted     int // >0 while walking a value that must not change
	path      []seg
	keys      []memberKey // keys of the objects being walked, outermost first
	levels    []level     // the arrays and objects being walked, outermost first
	renames   []string    // the new text of keys that held secrets
	objects   []object    // the state of the objects among them
	hits      []hit
	edits     []edit
	findings  []Finding
	entryType string
}

func (w *walker) syntaxError(pos int) error {
	return fmt.Errorf("byte %d: %w", pos+1, errSyntax)
}

func (w *walker) scalar(pos int) (int, error) {
	start := pos
	for pos < len(w.line) && !endsScalar(w.line[pos]) {
		pos++
	}
	if pos == start {
		return pos, w.syntaxError(pos)
	}
	return pos, nil
}

func endsScalar(c byte) bool {
	return c == ',' || c == ']' || c == '}' || isSpace(c)
}

// stringEnd returns the position after the string literal starting at pos.
func (w *walker) stringEnd(pos int) (int, error) {
	for i := pos + 1; i < len(w.line); {
		j := bytes.IndexByte(w.line[i:], '"')
		if j < 0 {
			break
		}
		i += j
		if !escaped(w.line, i) {
			return i + 1, nil
		}
		i++
	}
	return len(w.line), w.syntaxError(pos)
}

// escaped reports whether the quote at line[i] is preceded by an odd number
// of backslashes.
func escaped(line []byte, i int) bool {
	n := 0
	for i > 0 && line[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// visitString scans the string literal line[a:b] and records an edit when
// it held secrets; it returns the new decoded text and whether it changed.
// The prefilter runs on the decoded bytes; only a string with keyword hits
// is turned into a Go string for the regexes. A key's findings are recorded
// after its new text is on the path, so no path ever shows the secret.
func (w *walker) visitString(a, b int, key bool) (string, bool) {
	if w.muted > 0 {
		return "", false
	}
	raw := w.line[a+1 : b-1]
	if len(raw) <= maxWord && w.r.clean[string(raw)] {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		w.sc.decoded = appendDecoded(w.sc.decoded[:0], raw)
		raw = w.sc.decoded
	}
	spans := w.sc.scanText(raw)
	if len(spans) == 0 {
		return "", false
	}
	w.hits = w.hits[:0]
	out := w.r.replace(string(raw), spans, func(rule, secret, placeholder string) {
		w.hits = append(w.hits, hit{rule, secret, placeholder})
	})
	w.edits = append(w.edits, edit{a, b, jsonl.AppendString(nil, out)})
	if key {
		w.renames = append(w.renames, out)
		w.path[len(w.path)-1].renamed = int32(len(w.renames))
	}
	for _, h := range w.hits {
		w.finding(h.rule, h.secret, h.placeholder)
	}
	return out, true
}

// finding records one replaced secret at the current path.
func (w *walker) finding(rule, secret, placeholder string) {
	w.findings = append(w.findings, Finding{
		Rule: rule, JSONPath: w.jsonPath(secret, placeholder), EntryType: w.entryType,
		Preview: mask(secret), Placeholder: placeholder,
	})
}

// jsonPath writes the current path. Keys are shown as redacted; a key that
// still holds secret (found only in the value) shows placeholder instead.
func (w *walker) jsonPath(secret, placeholder string) string {
	var sb strings.Builder
	sb.WriteString("$")
	for _, s := range w.path {
		if s.b == 0 {
			sb.WriteString("[" + strconv.Itoa(int(s.idx)) + "]")
			continue
		}
		k := decodeString(w.line[s.a+1 : s.b-1])
		if s.renamed > 0 {
			k = w.renames[s.renamed-1]
		}
		if secret != "" {
			k = strings.ReplaceAll(k, secret, placeholder)
		}
		if isIdentifier(k) {
			sb.WriteString("." + k)
		} else {
			sb.WriteString("[" + string(jsonl.QuoteString(k)) + "]")
		}
	}
	return sb.String()
}

func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) || (i == 0 && s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return s != ""
}

func skipSpace(line []byte, pos int) int {
	for pos < len(line) && isSpace(line[pos]) {
		pos++
	}
	return pos
}

// decodeString decodes the inside of a JSON string literal.
func decodeString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	return string(appendDecoded(nil, raw))
}

// appendDecoded appends the decoded inside of a JSON string literal.
// Malformed escapes are kept as written; lone surrogates become U+FFFD.
func appendDecoded(out, raw []byte) []byte {
	for {
		i := bytes.IndexByte(raw, '\\')
		if i < 0 || i+1 >= len(raw) {
			return append(out, raw...)
		}
		out = append(out, raw[:i]...)
		var last int
		out, last = appendEscape(out, raw, i+1)
		raw = raw[last+1:]
	}
}

// appendEscape decodes the escape whose letter is raw[i]; it returns the
// index of the escape's last byte.
func appendEscape(out, raw []byte, i int) ([]byte, int) {
	switch c := raw[i]; c {
	case 'n':
		return append(out, '\n'), i
	case 't':
		return append(out, '\t'), i
	case 'r':
		return append(out, '\r'), i
	case 'b':
		return append(out, '\b'), i
	case 'f':
		return append(out, '\f'), i
	case 'u':
		return appendUnicodeEscape(out, raw, i)
	default:
		return append(out, c), i
	}
}

func appendUnicodeEscape(out, raw []byte, i int) ([]byte, int) {
	r1, ok := hex4(raw, i+1)
	if !ok {
		return append(out, '\\', 'u'), i
	}
	i += 4
	if utf16.IsSurrogate(r1) && i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
		if r2, ok := hex4(raw, i+3); ok {
			if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
				return utf8.AppendRune(out, r), i + 6
			}
		}
	}
	if utf16.IsSurrogate(r1) {
		r1 = utf8.RuneError
	}
	return utf8.AppendRune(out, r1), i
}

func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	return rune(n), err == nil
}
