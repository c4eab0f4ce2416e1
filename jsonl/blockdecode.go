package jsonl

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// DecodeBlocks decodes a content array into its blocks as Unmarshal would,
// in one pass over the bytes and without copying them: each Arguments is a
// slice of content. It takes only the arrays whose decoding is plain (every
// element an object of Block's keys as Pi writes them, with values of their
// fields' types, each key once, no \u escape of a surrogate, valid UTF-8
// with no control character, not even as white space);
// for any other content ok is false, and the caller unmarshals it.
// content must be valid JSON, as every value of an indexed line is (the
// index takes only lines JSON.parse accepts): the values of keys it does not
// decode are skipped by their brackets, not checked. On other input it
// never panics, but may take what Unmarshal refuses.
// FuzzDecodeBlocks holds it to Unmarshal.
func DecodeBlocks(content []byte) (blocks []Block, ok bool) {
	if !plainText(content) {
		return nil, false
	}
	return decodePlainBlocks(content)
}

// decodePlainBlocks is DecodeBlocks of content already checked by plainText.
func decodePlainBlocks(content []byte) (blocks []Block, ok bool) {
	blocks, end, ok := decodeBlocksAt(content, skipSpace(content, 0))
	if !ok || skipSpace(content, end) != len(content) {
		return nil, false
	}
	return blocks, true
}

// decodeBlocksAt decodes the array at content[i], checked by plainText, and
// returns the index just past it; ok is false as for DecodeBlocks.
func decodeBlocksAt(content []byte, i int) (blocks []Block, end int, ok bool) {
	if i >= len(content) || content[i] != '[' {
		return nil, 0, false
	}
	blocks = []Block{}
	for i = skipSpace(content, i+1); i < len(content) && content[i] != ']'; {
		if content[i] != '{' {
			return nil, 0, false
		}
		var b Block
		end, ok := decodeBlock(content, i, &b)
		if !ok {
			return nil, 0, false
		}
		blocks = append(blocks, b)
		if i = skipSpace(content, end); i < len(content) && content[i] == ',' {
			if i = skipSpace(content, i+1); i >= len(content) || content[i] != '{' {
				return nil, 0, false
			}
		} else if i >= len(content) || content[i] != ']' {
			return nil, 0, false
		}
	}
	if i >= len(content) {
		return nil, 0, false
	}
	return blocks, i + 1, true
}

// blockKeys are Block's JSON keys, in field order.
var blockKeys = [...]string{"type", "text", "data", "mimeType", "thinking", "thinkingSignature", "redacted",
	"id", "name", "arguments", "thoughtSignature"}

// decodeBlock decodes the object at content[i] into b and returns the index
// just past it; ok is false when its decoding is not plain (see DecodeBlocks).
func decodeBlock(content []byte, i int, b *Block) (end int, ok bool) {
	return plainMembers(content, i, blockKeys[:], func(k int, val []byte) bool { return setBlockField(b, k, val) })
}

// plainMembers walks the object at raw[i] and calls set with each member
// whose key is one of keys, by its index there, and returns the index just
// past the object. ok is false when the object's decoding is not plain: a key
// of keys twice, a key the decoder could match to one of them (in other case,
// escaped, outside ASCII), set refusing a value, or bad syntax. keys has at
// most 64 names.
func plainMembers(raw []byte, i int, keys []string, set func(k int, val []byte) bool) (end int, ok bool) {
	return plainMembersAt(raw, i, keys, func(k, vstart int) (int, bool) {
		vend, err := SkipValue(raw, vstart)
		return vend, err == nil && set(k, raw[vstart:vend])
	})
}

// plainMembersAt is plainMembers for a caller that reads the values of keys
// itself: take reads the value of keys[k] that starts at raw[vstart] and
// returns the index just past it, so that a value decoded on the way is not
// walked a second time to find its end.
func plainMembersAt(raw []byte, i int, keys []string, take func(k, vstart int) (vend int, ok bool)) (end int, ok bool) {
	if i >= len(raw) || raw[i] != '{' {
		return 0, false
	}
	var seen uint64
	for i = skipSpace(raw, i+1); i < len(raw) && raw[i] != '}'; {
		if raw[i] != '"' {
			return 0, false
		}
		kend, err := SkipValue(raw, i)
		if err != nil {
			return 0, false
		}
		key := raw[i+1 : kend-1]
		colon := skipSpace(raw, kend)
		if colon >= len(raw) || raw[colon] != ':' {
			return 0, false
		}
		vstart := skipSpace(raw, colon+1)
		var vend int
		switch k := keyIndex(keys, key); {
		case k < 0 && foldsToKey(keys, key):
			return 0, false
		case k >= 0 && seen&(1<<k) != 0:
			return 0, false
		case k >= 0:
			seen |= 1 << k
			if vend, ok = take(k, vstart); !ok {
				return 0, false
			}
		default:
			if vend, err = SkipValue(raw, vstart); err != nil {
				return 0, false
			}
		}
		if i = skipSpace(raw, vend); i < len(raw) && raw[i] == ',' {
			if i = skipSpace(raw, i+1); i >= len(raw) || raw[i] != '"' {
				return 0, false
			}
		} else if i >= len(raw) || raw[i] != '}' {
			return 0, false
		}
	}
	if i >= len(raw) {
		return 0, false
	}
	return i + 1, true
}

// keyIndex returns the index of key in keys, -1 when it is none of them.
func keyIndex(keys []string, key []byte) int {
	for k, name := range keys {
		if string(key) == name {
			return k
		}
	}
	return -1
}

// foldsToKey reports whether a key that is none of keys could still name
// one of their fields for the decoder: written with an escape, outside
// ASCII, or one of them in other case.
func foldsToKey(keys []string, key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	for _, name := range keys {
		// key and name are ASCII here, so folding keeps their lengths.
		if len(name) == len(key) && strings.EqualFold(string(key), name) {
			return true
		}
	}
	return false
}

// setBlockField sets the field of blockKeys[k] from its raw value; false when
// the value is not of the field's type, or null where the decoder's result is
// not plain.
func setBlockField(b *Block, k int, val []byte) bool {
	switch blockKeys[k] {
	case "redacted":
		switch string(val) {
		case "true":
			b.Redacted = true
		case "false":
			b.Redacted = false
		case "null":
		default:
			return false
		}
		return true
	case "arguments":
		if string(val) == "null" {
			return false
		}
		b.Arguments = val
		return true
	}
	if string(val) == "null" {
		return true // a null leaves a string field as it is
	}
	s, ok := plainString(val)
	if !ok {
		return false
	}
	switch blockKeys[k] {
	case "type":
		b.Type = s
	case "text":
		b.Text = s
	case "data":
		b.Data = s
	case "mimeType":
		b.MimeType = s
	case "thinking":
		b.Thinking = s
	case "thinkingSignature":
		b.ThinkingSignature = s
	case "id":
		b.ID = s
	case "name":
		b.Name = s
	case "thoughtSignature":
		b.ThoughtSignature = s
	}
	return true
}

// plainString decodes a string literal with no \u escape of a surrogate
// (where decoders differ: a lone one). Its callers have checked the literal's
// bytes with plainText, so a literal with no backslash is its text as it is:
// that text is returned as a string over val's bytes, not a copy (the texts
// were a seventh of what an export allocated), and val must not change while
// it is in use. A literal with escapes is decoded without checking its UTF-8
// again.
func plainString(val []byte) (string, bool) {
	if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
		return "", false
	}
	inner := val[1 : len(val)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(inner), len(inner)), true
	}
	for rest := inner; ; {
		j := bytes.Index(rest, []byte(`\u`))
		if j < 0 {
			break
		}
		if h := rest[j+2:]; len(h) > 0 && (h[0] == 'd' || h[0] == 'D') {
			return "", false
		}
		rest = rest[j+2:]
	}
	b, ok := appendUnescaped(make([]byte, 0, len(inner)), inner, true)
	if !ok {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not used again
}

// plainText reports whether b is valid UTF-8 with no control character (in
// particular no raw newline or tab, which decoders treat differently).
func plainText(b []byte) bool {
	return !hasControl(b) && utf8.Valid(b)
}

// hasControl reports whether b holds a byte below 0x20. It reads eight bytes
// at a time: (w - 0x20 in each byte) &^ w has a byte's high bit set exactly
// when some byte of w is below 0x20 (bytes of 0x80 and up never set it).
func hasControl(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-ones*' ')&^w&highs != 0 {
			return true
		}
	}
	for _, c := range b[i:] {
		if c < ' ' {
			return true
		}
	}
	return false
}
