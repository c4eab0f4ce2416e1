package jsonl

import (
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string literal exactly as JavaScript's
// JSON.stringify writes it: `"` and `\` escaped, the control characters below U+0020
// as \b \f \n \r \t or \u00XX, and everything else, '<', '>', '&', U+2028 and U+2029
// included, as raw UTF-8. Bytes that are not valid UTF-8 become U+FFFD, as they do
// when Node decodes a file: one per maximal subpart (see appendValidUTF8).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			dst = appendEscapedASCII(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i += maximalSubpart(s[i:])
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscapedASCII(dst []byte, c byte) []byte {
	switch c {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// QuoteString returns s as a JSON string literal in JSON.stringify's form.
func QuoteString(s string) []byte { return AppendString(nil, s) }

// AppendInt appends n as a JSON number.
func AppendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// ToValidUTF8 returns b with each maximal subpart of an ill-formed UTF-8
// sequence replaced by one U+FFFD, as Node's decoder replaces them when Pi
// reads a file (see appendValidUTF8); b itself when it is valid.
func ToValidUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return appendValidUTF8(make([]byte, 0, len(b)+16), b)
}
