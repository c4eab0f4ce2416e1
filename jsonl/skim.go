package jsonl

import (
	"bytes"
	"unicode/utf8"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Syntax is what a strict parse of JSON text found, judged as JSON.parse
// judges it: where the value ends, or where the first byte it refuses is.
// Offsets count from the start of the text handed to the parse.
type Syntax struct {
	End   int // the offset just past the value, when it parses
	ErrAt int // the offset of the first byte JSON.parse refuses, -1 when the value parses
	// EOF says the error is that the text ended inside the value
	// (ErrAt is then its length): a torn write, not a broken one.
	EOF bool
	// BadUTF8 says a string of a value that parses holds invalid UTF-8. It
	// is no error: Pi reads a file as UTF-8, with U+FFFD for such bytes,
	// before JSON.parse sees it. The index's skim does not look (Reader
	// does).
	BadUTF8 bool
}

// OK reports whether the value parses.
func (s Syntax) OK() bool { return s.ErrAt < 0 }

// parsedTo is the Syntax of a value that ends at end.
func parsedTo(end int) Syntax { return Syntax{End: end, ErrAt: -1} }

// refusedAt is the Syntax of text of n bytes whose first error is at at.
func refusedAt(at, n int) Syntax {
	at = min(at, n)
	return Syntax{ErrAt: at, EOF: at == n}
}

// before is s, the parse of text of n bytes, given that the first error
// inside a string (as its string map found it) is at e, or -1: the parser
// does not look inside strings, so the error that comes first wins.
func (s Syntax) before(e, n int) Syntax {
	if e < 0 || (s.OK() && s.End <= e) || (!s.OK() && s.ErrAt < e) {
		return s
	}
	return refusedAt(e, n)
}

// shifted is s with its offsets moved by d, for text that started d bytes
// into a buffer.
func (s Syntax) shifted(d int) Syntax {
	if s.OK() {
		s.End += d
	} else {
		s.ErrAt += d
	}
	return s
}

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the first offset of b at or after i that does not hold
// JSON white space.
func SkipSpace(b []byte, i int) int { return skipSpace(b, i) }

// skipSpace is SkipSpace, for the parsers of this package.
func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && IsSpace(b[i]) {
		i++
	}
	return i
}

// Fields are the raw JSON values of the keys of a session line that pitool
// reads, each nil when the key is absent. Nothing is decoded or allocated:
// they are slices of the line. When a key is repeated the last one counts,
// as with JSON.parse.
type Fields struct {
	Type, ID, ParentID []byte
	Version            []byte             // the header's
	Timestamp          []byte             // an entry's or the header's
	Refs               [NumRefKeys][]byte // the value of each reference key (see RefKey)
	FirstKeptIndex     []byte             // a v1 compaction's "firstKeptEntryIndex"
	Label              []byte             // a label entry's
	Content            []byte             // a custom_message's
	Message            []byte             // the whole "message" of a message entry
	Msg                MessageFields      // inside Message, when it is an object
}

// MessageFields are the raw values of the keys of a message that pitool
// reads, each nil when absent.
type MessageFields struct {
	Role, Content        []byte
	ToolCallID, ToolName []byte // a tool result's
	StopReason           []byte // an assistant message's
	Timestamp            []byte // the message's own "timestamp" (Pi's listing prefers it)
	// ToolCalls are the tool call blocks of an assistant message's content
	// array, in order (Reader only; the index's skim leaves them out).
	ToolCalls []RawToolCall
}

// RawToolCall is the raw "id" and "name" of one tool call block of a
// message's content (see BlockType), each nil when absent; when a key is
// repeated the last one counts, as with JSON.parse.
type RawToolCall struct{ ID, Name []byte }

// skim is what the index pass reads from each line: the Fields, and where
// the message lies in it.
type skim struct {
	Fields
	MessageOffset int  // where Message starts in the line
	MessageLast   bool // "message" is the line's last key
}

// Reader parses JSON values strictly, as JSON.parse reads them (no nesting
// limit, no recursion), and keeps the Fields of the objects it reads. It is
// the index's skimmer, for other packages: repair reads with it where a
// damaged line's entries start and end. A Reader keeps its buffers from one
// call to the next; the zero value is ready to use.
type Reader struct {
	ls lineSkimmer
	s  skim
	// text is what Read parsed last, and end where its value ends in it
	// (0 when it did not parse): the walks of eachread.go read it.
	text []byte
	end  int
	// Lean leaves out of Read what a reader of a few strings (search) does
	// not use: Msg.ToolCalls, a second walk of an assistant's content, and
	// Syntax.BadUTF8 (always false), a pass over the whole value; such a
	// reader checks the UTF-8 of the strings it reads.
	Lean bool
}

// Read parses the one JSON value that starts at b[i] (not at white space)
// and says where it ends; what follows it in b is not read. When the value
// is an object its Fields are stored in f (unless f is nil), else f is
// cleared. The string map is built from b[i] on, so i may lie anywhere in a
// line, as when entries are salvaged from the middle of a damaged one. Read
// also reports whether a string of a value that parses holds invalid UTF-8.
func (r *Reader) Read(b []byte, i int, f *Fields) Syntax {
	text := b[i:]
	r.s = skim{}
	r.ls.recording, r.ls.content.at = true, -1
	res := r.ls.read(text, &r.s)
	r.ls.recording = false
	r.text, r.end = text, 0
	if res.OK() {
		r.end = res.End
	}
	if content := r.s.Msg.Content; res.OK() && !r.Lean && len(content) > 0 && content[0] == '[' && RoleOf(r.s.Msg.Role) == AssistantRole {
		r.s.Msg.ToolCalls = r.ls.toolCalls(text, cap(text)-cap(content)) // content is a slice of text
	}
	if f != nil {
		*f = r.s.Fields
	}
	res.BadUTF8 = res.OK() && !r.Lean && !utf8.Valid(text[:res.End])
	return res.shifted(i)
}

// firstWindow is the first stretch ReadFirst maps; each next one is twice
// as long.
const firstWindow = 4 << 10

// ReadFirst is Read for a value that more text follows, as when joined
// entries are read one after another from one long line. Read maps all of
// b from i on, so reading k values that way costs k times the line;
// ReadFirst maps b in windows that double until the value ends inside one,
// so each value costs about twice its own length. A window that cuts the
// value short gives EOF, exactly as the end of b would.
func (r *Reader) ReadFirst(b []byte, i int, f *Fields) Syntax {
	for w := firstWindow; ; w *= 2 {
		end := min(len(b), i+w)
		res := r.Read(b[:end], i, f)
		if end == len(b) || !res.EOF {
			return res
		}
	}
}

// lineSkimmer skims lines one after another, reusing its string map and
// its stack of open containers. The stack has no depth limit, as JSON.parse
// has none: it costs a byte per open container, so a line's stack is never
// longer than the line, and it grows to the deepest line skimmed so far.
type lineSkimmer struct {
	strings stringMap
	closers []byte

	// recording is set while a Reader parses: the blocks of the message's
	// content array are then noted in content as they are validated.
	recording bool
	content   contentRecord

	// For lines skimmed in place (skimIn): the buffer holding them, and the
	// part of it the string map covers.
	data             []byte
	winStart, winEnd int
}

// skim checks that b is one valid JSON object, as JSON.parse would accept it
// (white space around it allowed), and pulls out the top-level fields the
// index needs. It decodes nothing else and allocates only for the fields it
// keeps. It never panics on any input: every line of a damaged file passes
// through here.
func (ls *lineSkimmer) skim(b []byte, s *skim) Syntax {
	clean := ls.strings.build(b)
	res := ls.parse(b, 0, s, true)
	if !clean {
		res = res.before(ls.strings.firstError(b), len(b))
	}
	return res
}

// read is skim for the one JSON value of any kind at b[0], which need not
// end b.
func (ls *lineSkimmer) read(b []byte, s *skim) Syntax {
	clean := ls.strings.build(b)
	res := ls.parse(b, 0, s, false)
	if !clean {
		res = res.before(ls.strings.firstError(b), len(b))
	}
	return res
}

// skimLine skims a line a scanner read: in place when the skimmer holds the
// scanner's buffer (data), else on its own.
func (ls *lineSkimmer) skimLine(l Line, s *skim) Syntax {
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
// broken, is skimmed alone.
func (ls *lineSkimmer) skimIn(start, end int, s *skim) Syntax {
	if start < ls.winStart || end > ls.winEnd {
		limit := min(len(ls.data), start+windowBytes)
		if end >= limit || !ls.strings.build(ls.data[start:limit]) {
			ls.winStart, ls.winEnd = 0, 0 // the map is of that line alone
			return ls.skim(ls.data[start:end], s)
		}
		ls.winStart, ls.winEnd = start, limit
	}
	return ls.parse(ls.data[ls.winStart:end], start-ls.winStart, s, true)
}

// parse parses b[at:], with the string map of b built: b may start with
// earlier lines of a window, which the parse never reads. With line set,
// b[at:] must be one object with white space around it; without, it must
// start with a value, of any kind. The Syntax counts from at.
func (ls *lineSkimmer) parse(b []byte, at int, s *skim, line bool) Syntax {
	p := skimmer{b: b, i: at, line: at, ls: ls, delims: ls.strings.delims}
	if line {
		p.i = skipSpace(b, at)
	}
	var ok bool
	switch {
	case p.i < len(b) && b[p.i] == '{':
		ok = p.object(s, nil)
	case line:
		ok = p.fail(p.i)
	default:
		ok = p.value()
	}
	if !ok {
		return refusedAt(p.errAt-at, len(b)-at)
	}
	if end := skipSpace(b, p.i); line && end != len(b) {
		return refusedAt(end-at, len(b)-at)
	}
	return parsedTo(p.i - at)
}

// toolCalls returns the tool call blocks of the content array at b[at], a
// part of b that parsed, with the string map of b built.
func (ls *lineSkimmer) toolCalls(b []byte, at int) []RawToolCall {
	p := skimmer{b: b, ls: ls, delims: ls.strings.delims}
	var calls []RawToolCall
	for i := skipSpace(b, at+1); b[i] != ']'; { // at an element
		end := 0
		if b[i] == '{' {
			typ, call, blockEnd := p.block(i)
			if BlockType(typ) == BlockToolCall {
				calls = append(calls, call)
			}
			end = blockEnd
		} else {
			p.i = i
			p.value()
			end = p.i
		}
		if i = skipSpace(b, end); b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return calls
}

// block reads the content block object at b[i], which parsed, and returns
// its raw "type", its id and name, and where it ends.
func (p *skimmer) block(i int) (typ []byte, call RawToolCall, end int) {
	b := p.b
	for i = skipSpace(b, i+1); b[i] == '"'; i = skipSpace(b, i+1) { // at a key, then at ',' or '}'
		q := closingQuote(p.delims, i)
		key := b[i : q+1]
		if p.ls.strings.unicode {
			key = unescapedKey(key)
		}
		p.i = skipSpace(b, skipSpace(b, q+1)+1) // past the colon
		start := p.i
		p.value()
		switch string(key) {
		case `"type"`:
			typ = b[start:p.i]
		case `"id"`:
			call.ID = b[start:p.i]
		case `"name"`:
			call.Name = b[start:p.i]
		}
		if i = skipSpace(b, p.i); b[i] == '}' {
			break
		}
	}
	return typ, call, i + 1
}

// skimmer is one parse of a line, b[line:], with b's string map built.
type skimmer struct {
	b      []byte
	i      int
	line   int          // where the line starts in b
	errAt  int          // where the parse failed
	delims []uint64     // the string map's delimiters
	depth  int          // objects open in object
	ls     *lineSkimmer // the string map of b, and the container stack
}

// fail notes a syntax error at i (at most the end of the text) and returns
// false.
func (p *skimmer) fail(i int) bool {
	p.errAt = min(i, len(p.b))
	return false
}

// object reads an object; with s non-nil it captures the top-level fields of
// interest, with m non-nil those of a message.
func (p *skimmer) object(s *skim, m *MessageFields) bool {
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return p.fail(p.i)
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
func (p *skimmer) members(s *skim, m *MessageFields) bool {
	b, escapedKeys := p.b, p.ls.strings.unicode
	i := skipSpace(b, p.i)
	if i < len(b) && b[i] == '}' {
		p.i = i + 1
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return p.fail(i)
		}
		end := closingQuote(p.delims, i)
		if end < 0 {
			return p.fail(len(b))
		}
		key := b[i : end+1]
		if escapedKeys {
			key = unescapedKey(key)
		}
		if i = skipSpace(b, end+1); i >= len(b) || b[i] != ':' {
			return p.fail(i)
		}
		if i = p.field(s, m, key, skipSpace(b, i+1)); i < 0 {
			return false
		}
		if i = skipSpace(b, i); i >= len(b) {
			return p.fail(i)
		}
		if b[i] == '}' {
			if s != nil {
				s.MessageLast = string(key) == `"message"`
			}
			p.i = i + 1
			return true
		}
		if b[i] != ',' {
			return p.fail(i)
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
func (p *skimmer) field(s *skim, m *MessageFields, key []byte, start int) int {
	b := p.b
	var end int
	switch {
	case start >= len(b):
		p.fail(start)
		return -1
	case b[start] == '"': // most fields are strings: no call to value
		if end = closingQuote(p.delims, start); end < 0 {
			p.fail(len(b))
			return -1
		}
		end++
	case m != nil && p.ls.recording && b[start] == '[' && string(key) == `"content"`:
		if end = p.contentArray(start); end < 0 {
			return -1
		}
	case s != nil && b[start] == '{' && string(key) == `"message"`:
		p.i = start
		s.Msg = MessageFields{} // a repeated "message": JSON.parse keeps only the last
		if !p.object(nil, &s.Msg) {
			return -1
		}
		end = p.i
		s.MessageOffset = start - p.line
	default:
		p.i = start
		if !p.value() {
			return -1
		}
		end = p.i
	}
	raw := b[start:end]
	switch {
	case m != nil:
		m.keep(key, raw)
	case s != nil:
		if !s.keep(key, raw) {
			s.keepMore(key, raw)
		}
	}
	return end
}

// contentRecord is what a Reader's parse noted of a message's content
// array, so that Reader.EachObject need not walk it again: the members of
// its objects, in order, as offsets into the text parsed.
type contentRecord struct {
	at      int          // where the array starts; -1: nothing is recorded
	members []memberSpan // the members of the array's objects, in order
	ends    []int        // for each object, where its members end in members
}

// memberSpan is one member of an object: its key, quotes included, and its
// raw value, as offsets into the text parsed.
type memberSpan struct{ key, keyEnd, val, valEnd int }

// contentArray reads the array at b[start], a message's content, exactly as
// value would, and records the members of the objects in it; it returns
// where the array ends, or -1 (the error noted).
func (p *skimmer) contentArray(start int) int {
	b, rec := p.b, &p.ls.content
	rec.at, rec.members, rec.ends = -1, rec.members[:0], rec.ends[:0]
	i := skipSpace(b, start+1)
	if i < len(b) && b[i] == ']' {
		rec.at = start
		return i + 1
	}
	for {
		if i < len(b) && b[i] == '{' {
			i = p.recordMembers(i)
		} else if p.i = i; p.value() {
			i = p.i
		} else {
			i = -1
		}
		if i < 0 {
			return -1
		}
		if i = skipSpace(b, i); i >= len(b) || (b[i] != ']' && b[i] != ',') {
			p.fail(i)
			return -1
		}
		if b[i] == ']' {
			rec.at = start
			return i + 1
		}
		i = skipSpace(b, i+1)
	}
}

// recordMembers reads the object at b[i] as value would, recording its
// members, and returns where it ends, or -1 (the error noted).
func (p *skimmer) recordMembers(i int) int {
	b, rec := p.b, &p.ls.content
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		rec.ends = append(rec.ends, len(rec.members))
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			p.fail(i)
			return -1
		}
		key, q := i, closingQuote(p.delims, i)
		if q < 0 {
			p.fail(len(b))
			return -1
		}
		if i = skipSpace(b, q+1); i >= len(b) || b[i] != ':' {
			p.fail(i)
			return -1
		}
		val := skipSpace(b, i+1)
		if p.i = val; !p.value() {
			return -1
		}
		rec.members = append(rec.members, memberSpan{key, q + 1, val, p.i})
		if i = skipSpace(b, p.i); i >= len(b) || (b[i] != '}' && b[i] != ',') {
			p.fail(i)
			return -1
		}
		if b[i] == '}' {
			rec.ends = append(rec.ends, len(rec.members))
			return i + 1
		}
		i = skipSpace(b, i+1)
	}
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
	case `"timestamp"`:
		s.Timestamp = raw
	case `"message"`:
		s.Message = raw
		if raw[0] != '{' {
			s.Msg = MessageFields{} // a later "message" that is not an object has no role
		}
	default:
		return false
	}
	return true
}

// keepMore keeps the value of the rarer top-level keys: reference keys
// among them.
func (s *skim) keepMore(key, raw []byte) {
	switch string(key) {
	case `"label"`:
		s.Label = raw
	case `"version"`:
		s.Version = raw
	case `"content"`:
		s.Content = raw
	case `"firstKeptEntryIndex"`:
		s.FirstKeptIndex = raw
	default:
		if r := ParseRefKey(key[1 : len(key)-1]); r != NoRef {
			s.Refs[r] = raw
		}
	}
}

// keep keeps the value of a message's key that pitool reads.
func (m *MessageFields) keep(key, raw []byte) {
	switch string(key) {
	case `"role"`:
		m.Role = raw
	case `"content"`:
		m.Content = raw
	case `"toolCallId"`:
		m.ToolCallID = raw
	case `"toolName"`:
		m.ToolName = raw
	case `"stopReason"`:
		m.StopReason = raw
	case `"timestamp"`:
		m.Timestamp = raw
	}
}

// value reads one value of any depth. Containers are tracked on an explicit
// stack of their closing bytes rather than by recursion, so a token costs a
// few comparisons and no call, and a line nested a million deep costs a
// megabyte of stack, kept for the next line, rather than a stack overflow.
func (p *skimmer) value() bool {
	b, i, delims := p.b, p.i, p.delims
	closers := p.ls.closers[:0]
	for {
		if i >= len(b) {
			return p.fail(i)
		}
		switch c := b[i]; c {
		case '"':
			if i = closingQuote(delims, i); i < 0 {
				return p.fail(len(b))
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
			return p.fail(^i)
		}
		// A value ends at i: close what it completes, then move to the next
		// element of the innermost container.
		for {
			if len(closers) == 0 {
				p.i, p.ls.closers = i, closers
				return true
			}
			if i = skipSpace(b, i); i >= len(b) {
				return p.fail(i)
			}
			closer, c := closers[len(closers)-1], b[i]
			if c == closer {
				i++
				closers = closers[:len(closers)-1]
				continue
			}
			if c != ',' {
				return p.fail(i)
			}
			if i = skipSpace(b, i+1); closer == '}' { // the next key and its colon, inline
				if i >= len(b) || b[i] != '"' {
					return p.fail(i)
				}
				if i = closingQuote(delims, i); i < 0 {
					return p.fail(len(b))
				}
				if i = skipSpace(b, i+1); i >= len(b) || b[i] != ':' {
					return p.fail(i)
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
		p.fail(i)
		return -1
	}
	if i = closingQuote(p.delims, i); i < 0 {
		p.fail(len(b))
		return -1
	}
	if i = skipSpace(b, i+1); i >= len(b) || b[i] != ':' {
		p.fail(i)
		return -1
	}
	return skipSpace(b, i+1)
}

// literalEnd returns the position after lit at i, whose first byte b[i]
// is, or ^k for the first byte k that is not lit's.
func literalEnd(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	k := 1
	for i+k < len(b) && b[i+k] == lit[k] {
		k++
	}
	return ^(i + k)
}

// numberEnd returns the position after the number at i, or ^k for the first
// byte k that does not fit JSON's number grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
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
		return ^i
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(b, i+1); b[i-1] == '.' {
			return ^i
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digits(b, i); i == start {
			return ^i
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
