package jsonl

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// DecodeBlocks decodes a content array into its blocks as Unmarshal would,
// in one pass over the bytes and without copying them: each Arguments is a
// slice of content. It takes only the arrays whose decoding is plain (every
// element an object of Block's keys as Pi writes them, with values of their
// fields' types, each key once, no \u escape of a surrogate, valid UTF-8);
// for any other content ok is false, and the caller unmarshals it.
// FuzzDecodeBlocks holds it to Unmarshal.
func DecodeBlocks(content []byte) (blocks []Block, ok bool) {
	i := skipSpace(content, 0)
	if i >= len(content) || content[i] != '[' || !utf8.Valid(content) {
		return nil, false
	}
	blocks = []Block{}
	for i = skipSpace(content, i+1); i < len(content) && content[i] != ']'; {
		if content[i] != '{' {
			return nil, false
		}
		var b Block
		end, ok := decodeBlock(content, i, &b)
		if !ok {
			return nil, false
		}
		blocks = append(blocks, b)
		if i = skipSpace(content, end); i < len(content) && content[i] == ',' {
			if i = skipSpace(content, i+1); i >= len(content) || content[i] != '{' {
				return nil, false
			}
		} else if i >= len(content) || content[i] != ']' {
			return nil, false
		}
	}
	if i >= len(content) || skipSpace(content, i+1) != len(content) {
		return nil, false
	}
	return blocks, true
}

// blockKeys are Block's JSON keys, in field order; a bit per key marks the
// ones seen in a block.
var blockKeys = [...]string{"type", "text", "data", "mimeType", "thinking", "thinkingSignature", "redacted",
	"id", "name", "arguments", "thoughtSignature"}

// decodeBlock decodes the object at content[i] into b and returns the index
// just past it; ok is false when its decoding is not plain (see DecodeBlocks).
func decodeBlock(content []byte, i int, b *Block) (end int, ok bool) {
	var seen uint16
	for i = skipSpace(content, i+1); i < len(content) && content[i] != '}'; {
		if content[i] != '"' {
			return 0, false
		}
		kend, err := SkipValue(content, i)
		if err != nil {
			return 0, false
		}
		key := content[i+1 : kend-1]
		colon := skipSpace(content, kend)
		if colon >= len(content) || content[colon] != ':' {
			return 0, false
		}
		vstart := skipSpace(content, colon+1)
		vend, err := SkipValue(content, vstart)
		if err != nil {
			return 0, false
		}
		k := blockKey(key)
		switch {
		case k < 0 && foldsToBlockKey(key):
			return 0, false // the decoder matches keys regardless of case
		case k >= 0 && seen&(1<<k) != 0:
			return 0, false
		case k >= 0:
			seen |= 1 << k
			if !setBlockField(b, k, content[vstart:vend]) {
				return 0, false
			}
		}
		if i = skipSpace(content, vend); i < len(content) && content[i] == ',' {
			if i = skipSpace(content, i+1); i >= len(content) || content[i] != '"' {
				return 0, false
			}
		} else if i >= len(content) || content[i] != '}' {
			return 0, false
		}
	}
	if i >= len(content) {
		return 0, false
	}
	return i + 1, true
}

// blockKey returns the index of key in blockKeys, -1 when it is none of them.
func blockKey(key []byte) int {
	for k, name := range blockKeys {
		if string(key) == name {
			return k
		}
	}
	return -1
}

// foldsToBlockKey reports whether a key that is none of Block's could still
// name one of its fields for the decoder: written with an escape, outside
// ASCII, or one of them in other case.
func foldsToBlockKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	for _, name := range blockKeys {
		if strings.EqualFold(string(key), name) {
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
// (where decoders differ: a lone one).
func plainString(val []byte) (string, bool) {
	if len(val) < 2 || val[0] != '"' {
		return "", false
	}
	for rest := val; ; {
		j := bytes.Index(rest, []byte(`\u`))
		if j < 0 {
			break
		}
		if h := rest[j+2:]; len(h) > 0 && (h[0] == 'd' || h[0] == 'D') {
			return "", false
		}
		rest = rest[j+2:]
	}
	return DecodeString(val)
}
