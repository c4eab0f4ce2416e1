package jsonl

import "bytes"

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
	Refs     [NumRefKeys][]byte // the value of each reference key (see RefKey)
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

// lineSkimmer skims lines one after another, reusing its string map and
// its stack of open containers. The stack has no depth limit, as JSON.parse
// has none: it costs a byte per open container, so a line's stack is never
// longer than the line, and it grows to the deepest line skimmed so far.
type lineSkimmer struct {
	strings stringMap
	closers []byte

	// For lines skimmed in place (skimIn): the buffer holding them, and the
	// part of it the string map covers.
	data             []byte
	winStart, winEnd int
}

// skim checks that b is one valid JSON object, as JSON.parse would accept it,
// and pulls out the top-level fields the index needs. It decodes nothing else
// and allocates only for the fields it keeps. It never panics on any input:
// every line of a damaged file passes through here.
func (ls *lineSkimmer) skim(b []byte, s *skim) bool {
	return ls.strings.build(b) && ls.parse(b, 0, s)
}

// skimLine skims a line a scanner read: in place when the skimmer holds the
// scanner's buffer (data), else on its own.
func (ls *lineSkimmer) skimLine(l Line, s *skim) bool {
	if ls.data == nil {
		return ls.skim(l.Bytes, s)
	}
	start := int(l.Offset) + l.bomLen()
	return ls.skimIn(start, start+len(l.Bytes), s)
}

// windowBytes is how much of a buffer skimIn maps at a time.
const windowBytes = 16 << 10

// skimIn is skim for the line data[start:end] of ls.data, a buffer that
// holds the lines after it too (a mapped file). It maps windowBytes of the
// buffer at a time, in place, and skims the lines the window holds whole
// with that map: when no string in a window is broken, every line in it
// starts outside any string, so the window's map is each line's own map.
// A line longer than a window, or the first of a window where a string is
// broken, is mapped alone, exactly as skim would.
func (ls *lineSkimmer) skimIn(start, end int, s *skim) bool {
	if (start < ls.winStart || end > ls.winEnd) && !ls.mapFrom(start, end) {
		return false
	}
	return ls.parse(ls.data[ls.winStart:end], start-ls.winStart, s)
}

// mapFrom maps the window that starts with the line data[start:end]. It
// returns false when that line's own strings are broken.
func (ls *lineSkimmer) mapFrom(start, end int) bool {
	if limit := min(len(ls.data), start+windowBytes); end < limit && ls.strings.buildWindow(ls.data[start:limit]) {
		ls.winStart, ls.winEnd = start, limit
		return true
	}
	if !ls.strings.build(ls.data[start:end]) {
		ls.winStart, ls.winEnd = 0, 0 // the map is of nothing
		return false
	}
	ls.winStart, ls.winEnd = start, end
	return true
}

// parse is skim for the line b[at:], with the string map of b built: b may
// start with earlier lines of a window, which the parse never reads.
func (ls *lineSkimmer) parse(b []byte, at int, s *skim) bool {
	p := skimmer{b: b, i: at, line: at, ls: ls, delims: ls.strings.delims}
	p.space()
	if !p.object(s, nil) {
		return false
	}
	p.space()
	return p.i == len(b)
}

// skimmer is one parse of a line, b[line:], with b's string map built.
type skimmer struct {
	b      []byte
	i      int
	line   int          // where the line starts in b
	delims []uint64     // the string map's delimiters
	depth  int          // objects open in object
	ls     *lineSkimmer // the string map of b, and the container stack
}

// space skips white space.
func (p *skimmer) space() { p.i = skipSpace(p.b, p.i) }

// object reads an object; with s non-nil it captures the top-level fields of
// interest, with m non-nil those of a message.
func (p *skimmer) object(s *skim, m *msgSkim) bool {
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false
	}
	p.i++
	p.depth++
	ok := p.members(s, m)
	p.depth--
	return ok
}

// members reads an object's members, after its opening brace. It works on
// a local position, with the key's checks inline: the members of the line
// and of its message are most of the parser's calls.
func (p *skimmer) members(s *skim, m *msgSkim) bool {
	b, escapedKeys := p.b, p.ls.strings.unicode
	i := skipSpace(b, p.i)
	if i < len(b) && b[i] == '}' {
		p.i = i + 1
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := closingQuote(p.delims, i)
		if end < 0 {
			return false
		}
		key := b[i : end+1]
		if escapedKeys {
			key = unescapedKey(key)
		}
		if i = skipSpace(b, end+1); i >= len(b) || b[i] != ':' {
			return false
		}
		if i = p.field(s, m, key, skipSpace(b, i+1)); i < 0 {
			return false
		}
		if i = skipSpace(b, i); i >= len(b) {
			return false
		}
		if b[i] == '}' {
			if s != nil {
				s.MessageLast = string(key) == `"message"`
			}
			p.i = i + 1
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = skipSpace(b, i+1)
	}
}

// unescapedKey returns a key that holds an escape as JSON.parse reads it,
// quoted again. Pi never escapes a letter, and only a \u escape can spell a
// name the skim looks for, so this is needed only where the map saw one.
func unescapedKey(key []byte) []byte {
	if bytes.IndexByte(key, '\\') < 0 {
		return key
	}
	name, _ := DecodeString(key)
	return []byte(`"` + name + `"`)
}

// field reads the value at start and returns where it ends, or -1. It keeps
// the value when s or m wants the key; the value of a top-level "message" is
// walked with its own capture.
func (p *skimmer) field(s *skim, m *msgSkim, key []byte, start int) int {
	b := p.b
	end := -1
	switch {
	case start >= len(b):
		return -1
	case b[start] == '"': // most fields are strings: no call to value
		if end = closingQuote(p.delims, start); end >= 0 {
			end++
		}
	case s != nil && b[start] == '{' && string(key) == `"message"`:
		p.i = start
		s.Msg = msgSkim{} // a repeated "message": JSON.parse keeps only the last
		if p.object(nil, &s.Msg) {
			end = p.i
		}
		s.MessageOffset = start - p.line
	default:
		p.i = start
		if p.value() {
			end = p.i
		}
	}
	if end < 0 {
		return -1
	}
	raw := b[start:end]
	switch {
	case m != nil:
		switch string(key) {
		case `"role"`:
			m.Role = raw
		case `"content"`:
			m.Content = raw
		}
	case s != nil:
		if !s.keep(key, raw) {
			s.keepRef(key, raw)
		}
	}
	return end
}

// keep keeps the value of a top-level key the index reads, and says whether
// it was one. It stays small enough to be inlined: most keys are these.
func (s *skim) keep(key, raw []byte) bool {
	switch string(key) {
	case `"type"`:
		s.Type = raw
	case `"id"`:
		s.ID = raw
	case `"parentId"`:
		s.ParentID = raw
	case `"label"`:
		s.Label = raw
	case `"version"`:
		s.Version = raw
	case `"message"`:
		s.Message = raw
		if raw[0] != '{' {
			s.Msg = msgSkim{} // a later "message" that is not an object has no role
		}
	default:
		return false
	}
	return true
}

// keepRef keeps the value of a reference key.
func (s *skim) keepRef(key, raw []byte) {
	if r := ParseRefKey(key[1 : len(key)-1]); r != NoRef {
		s.Refs[r] = raw
	}
}

// text decodes a skimmed string field; ok is false when it is absent or not a string.
func text(raw []byte) (string, bool) { return DecodeString(raw) }

// value reads one value of any depth. Containers are tracked on an explicit
// stack of their closing bytes rather than by recursion, so a token costs a
// few comparisons and no call, and a line nested a million deep costs a
// megabyte of stack, kept for the next line, rather than a stack overflow.
func (p *skimmer) value() bool {
	b, i, delims := p.b, p.i, p.delims
	closers := p.ls.closers[:0]
	for {
		if i >= len(b) {
			return false
		}
		switch c := b[i]; c {
		case '"':
			if i = closingQuote(delims, i); i < 0 {
				return false
			}
			i++
		case '{', '[':
			closer := c + 2 // '}' and ']'
			if i = skipSpace(b, i+1); i < len(b) && b[i] == closer {
				i++
				break
			}
			closers = append(closers, closer)
			if c == '{' {
				if i = p.key(i); i < 0 {
					return false
				}
			}
			continue
		case 't':
			i = literalEnd(b, i, "true")
		case 'f':
			i = literalEnd(b, i, "false")
		case 'n':
			i = literalEnd(b, i, "null")
		default:
			i = numberEnd(b, i)
		}
		if i < 0 {
			return false
		}
		// A value ends at i: close what it completes, then move to the next
		// element of the innermost container.
		for {
			if len(closers) == 0 {
				p.i, p.ls.closers = i, closers
				return true
			}
			if i = skipSpace(b, i); i >= len(b) {
				return false
			}
			closer, c := closers[len(closers)-1], b[i]
			if c == closer {
				i++
				closers = closers[:len(closers)-1]
				continue
			}
			if c != ',' {
				return false
			}
			if i = skipSpace(b, i+1); closer == '}' { // the next key and its colon, inline
				if i >= len(b) || b[i] != '"' {
					return false
				}
				if i = closingQuote(delims, i); i < 0 {
					return false
				}
				if i = skipSpace(b, i+1); i >= len(b) || b[i] != ':' {
					return false
				}
				i = skipSpace(b, i+1)
			}
			break
		}
	}
}

// key reads an object key at i and its colon, and returns where the value
// starts, or -1.
func (p *skimmer) key(i int) int {
	b := p.b
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = closingQuote(p.delims, i); i < 0 {
		return -1
	}
	if i = skipSpace(b, i+1); i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipSpace(b, i+1)
}

// literalEnd returns the position after lit at i, or -1.
func literalEnd(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
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

// numberEnd returns the position after the number at i, or -1. It accepts
// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(b, i+1); b[i-1] == '.' {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digits(b, i); i == start {
			return -1
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
