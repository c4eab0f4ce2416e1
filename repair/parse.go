package repair

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/pitool/pitool/jsonl"
)

// span is a value's byte range in a line; end == 0 means absent.
type span struct{ start, end int32 }

func (s span) ok() bool { return s.end > 0 }

// field names the few values validate reads from an entry.
type field uint8

const (
	fNone field = iota
	fType
	fID
	fParentID
	fTimestamp
	fVersion
	fFirstKeptIndex
	fCwd
	fMessage
	fRole
	fContent
	fToolCallID
	fToolName
	fStopReason
	fName
	fRefs                                       // fRefs + k: reference key k (refField)
	numFields = fRefs + field(jsonl.NumRefKeys) // fRefs + NoRef stays unused
)

// refField is the field of a reference key.
func refField(k jsonl.RefKey) field { return fRefs + field(k) }

// pctx says where in an entry the parser is, so it records only the
// fields that matter there.
type pctx uint8

const (
	ctxNone    pctx = iota
	ctxTop          // the entry object
	ctxMessage      // the entry's "message"
	ctxContent      // the message's "content" array
	ctxBlock        // one content block
)

// fields are the recorded value spans of one object.
type fields [numFields]span

// callSpan is one toolCall block of an assistant message.
type callSpan struct{ id, name span }

// parser is a strict JSON validator (the grammar JSON.parse accepts) that
// records the spans of the fields validate needs while it walks, in one pass.
// Like JSON.parse it has no nesting limit: it recurses only through the few
// levels whose fields it records (entry, message, content, block), and
// checks every value below them with an explicit stack.
type parser struct {
	b       []byte
	top     fields
	msg     fields
	calls   []callSpan
	errAt   int    // where the first syntax error is
	eof     bool   // the error is that the input ended early
	utf8    bool   // a string holds invalid UTF-8
	closers []byte // nested's stack, kept for the next line
}

func (p *parser) reset(b []byte) {
	p.b, p.top, p.msg, p.calls, p.errAt, p.eof, p.utf8 = b, fields{}, fields{}, p.calls[:0], -1, false, false
}

// fail records a syntax error at i and returns -1.
func (p *parser) fail(i int) int {
	p.errAt, p.eof = i, i >= len(p.b)
	return -1
}

// parseValue checks the value at b[i] and returns the index after it, or -1.
func (p *parser) parseValue(i int, ctx pctx) int {
	if i >= len(p.b) {
		return p.fail(i)
	}
	switch c := p.b[i]; {
	case (c == '{' || c == '[') && ctx == ctxNone:
		return p.nested(i)
	case c == '{':
		return p.members(i, ctx)
	case c == '[':
		return p.elements(i, ctx)
	}
	return p.scalar(i)
}

// scalar checks the string, literal or number at b[i] and returns the index
// after it, or -1.
func (p *parser) scalar(i int) int {
	switch c := p.b[i]; {
	case c == '"':
		return p.str(i)
	case c == 't':
		return p.literal(i, "true")
	case c == 'f':
		return p.literal(i, "false")
	case c == 'n':
		return p.literal(i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(i)
	}
	return p.fail(i)
}

// nested checks the array or object at b[i], whose fields nobody records,
// and returns the index after it, or -1. It tracks the open containers on a
// stack of their closing bytes, not by recursion, so that a line nested a
// million deep costs a megabyte and not a stack overflow. It fails at the
// same bytes as members and elements.
func (p *parser) nested(i int) int {
	b, closers := p.b, p.closers[:0]
	for {
		if i >= len(b) {
			return p.fail(i)
		}
		if c := b[i]; c == '{' || c == '[' {
			if i = ws(b, i+1); i >= len(b) || b[i] != c+2 { // '}' and ']'
				if closers = append(closers, c+2); c == '{' {
					i = p.key(i)
				}
				if i < 0 {
					return -1
				}
				continue
			}
			i++
		} else if i = p.scalar(i); i < 0 {
			return -1
		}
		if i, closers = p.close(i, closers); i < 0 || len(closers) == 0 {
			p.closers = closers[:0]
			return i
		}
	}
}

// close follows the value that ended at i: it pops the containers that end
// there, and steps over the comma (and key) before the next value of the
// innermost one still open. It returns where that value starts, or -1.
func (p *parser) close(i int, closers []byte) (int, []byte) {
	b := p.b
	for i >= 0 && len(closers) > 0 {
		if i = ws(b, i); i >= len(b) {
			return p.fail(i), closers
		}
		closer := closers[len(closers)-1]
		switch b[i] {
		case closer:
			i, closers = i+1, closers[:len(closers)-1]
			continue
		case ',':
			if i = ws(b, i+1); closer == '}' {
				i = p.key(i)
			}
			return i, closers
		}
		return p.fail(i), closers
	}
	return i, closers
}

// key checks an object key at b[i] and its colon, and returns where the
// value starts, or -1.
func (p *parser) key(i int) int {
	if i >= len(p.b) || p.b[i] != '"' {
		return p.fail(i)
	}
	if i = p.str(i); i < 0 {
		return -1
	}
	if i = ws(p.b, i); i >= len(p.b) || p.b[i] != ':' {
		return p.fail(i)
	}
	return ws(p.b, i+1)
}

// members parses an object's members after its '{' at b[i].
func (p *parser) members(i int, ctx pctx) int {
	var blk fields
	i = ws(p.b, i+1)
	if i < len(p.b) && p.b[i] == '}' {
		return i + 1
	}
	for {
		f, vs, end := p.member(i, ctx)
		if end < 0 {
			return -1
		}
		p.record(ctx, &blk, f, vs, end)
		i = ws(p.b, end)
		if i >= len(p.b) {
			return p.fail(i)
		}
		switch p.b[i] {
		case ',':
			i = ws(p.b, i+1)
			continue
		case '}':
			if ctx == ctxBlock && p.isToolCall(blk[fType]) {
				p.calls = append(p.calls, callSpan{id: blk[fID], name: blk[fName]})
			}
			return i + 1
		}
		return p.fail(i)
	}
}

// member parses `"key": value` and says which field the value is.
func (p *parser) member(i int, ctx pctx) (field, int, int) {
	if i >= len(p.b) || p.b[i] != '"' {
		return fNone, 0, p.fail(i)
	}
	end := p.str(i)
	if end < 0 {
		return fNone, 0, -1
	}
	f := lookupField(ctx, p.b[i+1:end-1])
	i = ws(p.b, end)
	if i >= len(p.b) || p.b[i] != ':' {
		return fNone, 0, p.fail(i)
	}
	vs := ws(p.b, i+1)
	return f, vs, p.parseValue(vs, childContext(ctx, f))
}

func lookupField(ctx pctx, key []byte) field {
	if ctx == ctxNone {
		return fNone
	}
	if hasBackslash(key) {
		k, ok := jsonl.DecodeString(append(append([]byte{'"'}, key...), '"'))
		if !ok {
			return fNone
		}
		key = []byte(k)
	}
	switch ctx {
	case ctxTop:
		return topField(key)
	case ctxMessage:
		return messageField(key)
	case ctxBlock:
		return blockField(key)
	}
	return fNone
}

// hasBackslash is bytes.IndexByte for the short keys of an entry, without
// the call.
func hasBackslash(key []byte) bool {
	for _, c := range key {
		if c == '\\' {
			return true
		}
	}
	return false
}

func topField(key []byte) field {
	switch string(key) {
	case "type":
		return fType
	case "id":
		return fID
	case "parentId":
		return fParentID
	case "timestamp":
		return fTimestamp
	case "version":
		return fVersion
	case "firstKeptEntryIndex":
		return fFirstKeptIndex
	case "cwd":
		return fCwd
	case "message":
		return fMessage
	case "content":
		return fContent
	}
	if k := jsonl.ParseRefKey(key); k != jsonl.NoRef {
		return refField(k)
	}
	return fNone
}

func messageField(key []byte) field {
	switch string(key) {
	case "role":
		return fRole
	case "content":
		return fContent
	case "toolCallId":
		return fToolCallID
	case "toolName":
		return fToolName
	case "stopReason":
		return fStopReason
	}
	return fNone
}

func blockField(key []byte) field {
	switch string(key) {
	case "type":
		return fType
	case "id":
		return fID
	case "name":
		return fName
	}
	return fNone
}

func childContext(ctx pctx, f field) pctx {
	switch {
	case ctx == ctxTop && f == fMessage:
		return ctxMessage
	case ctx == ctxMessage && f == fContent:
		return ctxContent
	case ctx == ctxContent:
		return ctxBlock
	}
	return ctxNone
}

func (p *parser) record(ctx pctx, blk *fields, f field, start, end int) {
	if f == fNone {
		return
	}
	s := span{int32(start), int32(end)}
	switch ctx {
	case ctxTop:
		p.top[f] = s
	case ctxMessage:
		p.msg[f] = s
	case ctxBlock:
		blk[f] = s
	}
}

// isToolCall reports whether a content block's type (its value span s) is
// a tool call's.
func (p *parser) isToolCall(s span) bool {
	return s.ok() && jsonl.BlockType(p.b[s.start:s.end]) == jsonl.BlockToolCall
}

// elements parses an array's elements after its '[' at b[i].
func (p *parser) elements(i int, ctx pctx) int {
	elem := ctxNone
	if ctx == ctxContent {
		elem = ctxBlock
	}
	i = ws(p.b, i+1)
	if i < len(p.b) && p.b[i] == ']' {
		return i + 1
	}
	for {
		if i = p.parseValue(i, elem); i < 0 {
			return -1
		}
		i = ws(p.b, i)
		if i >= len(p.b) {
			return p.fail(i)
		}
		switch p.b[i] {
		case ',':
			i = ws(p.b, i+1)
			continue
		case ']':
			return i + 1
		}
		return p.fail(i)
	}
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialBytes has the high bit set in the first byte of x (little-endian)
// that is '"', '\\', a control character or not ASCII; later bits may be
// false alarms.
func specialBytes(x uint64) uint64 {
	q := x ^ (ones * '"')
	s := x ^ (ones * '\\')
	return ((q - ones) &^ q & highs) | ((s - ones) &^ s & highs) | (((x - ones*0x20) | x) & highs)
}

// str checks the string starting at b[i] ('"') and returns the index after
// its closing quote. Sixteen bytes are checked at a time while none is
// special.
func (p *parser) str(i int) int {
	b := p.b
	j := i + 1
	for {
		j = skipPlain(b, j)
		if j >= len(b) {
			return p.fail(j)
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return p.fail(j)
		case c >= utf8.RuneSelf:
			j = p.rune(j)
			continue
		}
		if j = p.escape(j); j < 0 {
			return -1
		}
	}
}

// skipPlain returns the index of the first special byte at or after j.
func skipPlain(b []byte, j int) int {
	for ; j+16 <= len(b); j += 16 {
		if m := specialBytes(binary.LittleEndian.Uint64(b[j:])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		if m := specialBytes(binary.LittleEndian.Uint64(b[j+8:])); m != 0 {
			return j + 8 + bits.TrailingZeros64(m)>>3
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return j
		}
	}
	return j
}

// rune steps over the run of non-ASCII bytes at b[j], noting when it is
// not valid UTF-8. ASCII bytes never belong to a multi-byte sequence, so
// the run is valid exactly when its sequences are.
func (p *parser) rune(j int) int {
	k := j + 1
	for k < len(p.b) && p.b[k] >= utf8.RuneSelf {
		k++
	}
	if !utf8.Valid(p.b[j:k]) {
		p.utf8 = true
	}
	return k
}

// escape checks the escape at b[j] ('\\') and returns the index after it.
func (p *parser) escape(j int) int {
	b := p.b
	if j+1 >= len(b) {
		return p.fail(j + 1)
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return j + 2
	case 'u':
		for k := j + 2; k < j+6; k++ {
			if k >= len(b) {
				return p.fail(k)
			}
			if !isHex(b[k]) {
				return p.fail(k)
			}
		}
		return j + 6
	}
	return p.fail(j + 1)
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *parser) literal(i int, lit string) int {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(p.b) || p.b[i+k] != lit[k] {
			return p.fail(i + k)
		}
	}
	return i + len(lit)
}

// number checks -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number(i int) int {
	b := p.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return p.fail(i)
	}
	if i < len(b) && b[i] == '.' {
		if i+1 >= len(b) || !isDigit(b[i+1]) {
			return p.fail(i + 1)
		}
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return p.fail(i)
		}
		i = digits(b, i)
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// ws skips JSON white space.
func ws(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
