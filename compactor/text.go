package compactor

import (
	"strings"
	"unicode/utf16"

	"github.com/pitool/pitool/jsonl"
)

// blocks parses a content array into its object blocks; a string or a
// malformed value gives none.
func blocks(content jsonl.RawMessage) []jsonl.Object {
	elems, err := jsonl.ParseArray(content)
	if err != nil {
		return nil
	}
	out := make([]jsonl.Object, 0, len(elems))
	for _, e := range elems {
		if b, err := jsonl.ParseObject(e); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// contentText is pi-ai's contentText: a string content as is, otherwise the
// text blocks joined by sep.
func contentText(content jsonl.RawMessage, sep string) string {
	if s, ok := jsonl.DecodeString(content); ok {
		return s
	}
	var parts []string
	for _, b := range blocks(content) {
		if jsonl.BlockType(b.Get("type")) == jsonl.BlockText {
			parts = append(parts, b.String("text"))
		}
	}
	return strings.Join(parts, sep)
}

// sliceHead is Pi's sliceHead: at most max UTF-16 code units of s, never
// splitting a surrogate pair.
func sliceHead(s string, max int) string {
	units := 0
	for i, r := range s {
		n := 1
		if r >= 0x10000 {
			n = 2
		}
		if units+n > max {
			return s[:i]
		}
		units += n
	}
	return s
}

// lessUTF16 orders strings as JavaScript's default sort does: by UTF-16 code units.
func lessUTF16(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}
