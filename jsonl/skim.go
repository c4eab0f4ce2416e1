package jsonl

import (
	"encoding/binary"
	"math/bits"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skim is the handful of fields the index pass reads from each line.
// Each field is the raw JSON value, nil when the key is absent; nothing is
// decoded or allocated until the index needs it.
type skim struct {
	Type     []byte
	ID       []byte
	ParentID []byte
	Version  []byte
	TargetID []byte
	Label    []byte
	Message  []byte // the whole message object of a message entry

	MessageOffset int     // where Message starts in the line
	MessageLast   bool    // "message" is the line's last key
	Msg           msgSkim // fields of Message
}

// msgSkim is what the index reads inside a message object.
type msgSkim struct {
	Role    []byte
	Content []byte
}

// maxNesting bounds how deeply nested a line may be before it is rejected.
const maxNesting = 10000

// skimLine checks that b is one valid JSON object, as JSON.parse would accept
// it, and pulls out the top-level fields the index needs. It decodes nothing
// else and allocates only for the fields it keeps. It never panics on any
// input: every line of a damaged file passes through here.
func skimLine(b []byte, s *skim) bool {
	p := skimmer{b: b}
	p.space()
	if !p.object(s, nil) {
		return false
	}
	p.space()
	return p.i == len(b)
}

type skimmer struct {
	b     []byte
	i     int
	depth int
}

func (p *skimmer) space() {
	if p.i < len(p.b) && p.b[p.i] > ' ' {
		return
	}
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// eat consumes c, after any white space. Pi writes none, so the byte is
// checked first and white space skipped only when it does not match.
func (p *skimmer) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object reads an object; with s non-nil it captures the top-level fields of
// interest, with m non-nil those of a message.
func (p *skimmer) object(s *skim, m *msgSkim) bool {
	if !p.eat('{') {
		return false
	}
	if p.eat('}') {
		return true
	}
	for {
		p.space()
		start := p.i
		if !p.str() {
			return false
		}
		key := p.b[start:p.i]
		if !p.eat(':') {
			return false
		}
		p.space()
		if !p.field(s, m, key) {
			return false
		}
		if p.eat('}') {
			if s != nil {
				s.MessageLast = string(key) == `"message"`
			}
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

// field reads one value, keeping it when s or m wants the key. The value of a
// top-level "message" is walked with its own capture.
func (p *skimmer) field(s *skim, m *msgSkim, key []byte) bool {
	start := p.i
	var ok bool
	if s != nil && string(key) == `"message"` && start < len(p.b) && p.b[start] == '{' {
		ok = p.nested(func() bool { return p.object(nil, &s.Msg) })
		s.MessageOffset = start
	} else {
		ok = p.value()
	}
	if !ok {
		return false
	}
	raw := p.b[start:p.i]
	if m != nil {
		switch string(key) {
		case `"role"`:
			m.Role = raw
		case `"content"`:
			m.Content = raw
		}
		return true
	}
	if s != nil {
		s.keep(key, raw)
	}
	return true
}

func (s *skim) keep(key, raw []byte) {
	switch string(key) {
	case `"type"`:
		s.Type = raw
	case `"id"`:
		s.ID = raw
	case `"parentId"`:
		s.ParentID = raw
	case `"targetId"`:
		s.TargetID = raw
	case `"label"`:
		s.Label = raw
	case `"version"`:
		s.Version = raw
	case `"message"`:
		s.Message = raw
	}
}

// text decodes a skimmed string field; ok is false when it is absent or not a string.
func text(raw []byte) (string, bool) { return DecodeString(raw) }

func (p *skimmer) value() bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '"':
		return p.str()
	case c == '{':
		return p.nested(func() bool { return p.object(nil, nil) })
	case c == '[':
		return p.nested(p.array)
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return false
}

func (p *skimmer) nested(read func() bool) bool {
	p.depth++
	ok := p.depth <= maxNesting && read()
	p.depth--
	return ok
}

func (p *skimmer) array() bool {
	if !p.eat('[') {
		return false
	}
	if p.eat(']') {
		return true
	}
	for {
		p.space()
		if !p.value() {
			return false
		}
		if p.eat(']') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

func (p *skimmer) literal(lit string) bool {
	if len(p.b)-p.i < len(lit) || string(p.b[p.i:p.i+len(lit)]) != lit {
		return false
	}
	p.i += len(lit)
	return true
}

// plainStringByte marks the bytes a string can hold without a closer look.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string, checking its escapes and that it holds no raw control
// character, as JSON.parse does.
func (p *skimmer) str() bool {
	b, i := p.b, p.i
	if i >= len(b) || b[i] != '"' {
		return false
	}
	for i++; ; {
		i = skipPlain(b, i)
		if i >= len(b) || b[i] < 0x20 {
			return false
		}
		if b[i] == '"' {
			p.i = i + 1
			return true
		}
		if i+1 < len(b) && simpleEscape[b[i+1]] {
			i += 2
			continue
		}
		n := escapeLen(b[i:])
		if n == 0 {
			return false
		}
		i += n
	}
}

// simpleEscape marks the characters that complete a two-byte escape.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// skipPlain returns the index of the first byte at or after i that is a quote,
// a backslash or a control character, eight bytes at a time. The lowest
// flagged byte of a word is always a real one, so its position is exact.
func skipPlain(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := specialBytes(binary.LittleEndian.Uint64(b[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && plainStringByte[b[i]] {
		i++
	}
	return i
}

// specialBytes flags, in the high bit of each byte, the bytes of x that are a
// quote, a backslash or below 0x20; the lowest flag is always exact.
func specialBytes(x uint64) uint64 {
	quote, slash := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)&^x | (quote-ones)&^quote | (slash-ones)&^slash) & highs
}

// escapeLen returns the length of the escape sequence at the start of b, 0 if
// it is not a valid one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, c := range b[2:6] {
			if !isHex(c) {
				return 0
			}
		}
		return 6
	}
	return 0
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number accepts JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *skimmer) number() bool {
	b, i := p.b, p.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(b, i+1); b[i-1] == '.' {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digits(b, i); i == start {
			return false
		}
	}
	p.i = i
	return true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
