package jsonl

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Pi reads a session file as UTF-8 with Node's decoder, which follows the
// WHATWG Encoding standard, and only then parses each line with JSON.parse.
// So the text of a string is its bytes made valid UTF-8 that way (each
// maximal subpart of an ill-formed sequence becomes one U+FFFD), with its
// escapes decoded. This file is that decoding, the only one in pitool.

// DecodeString decodes a raw JSON string literal, quotes included, as Pi reads
// it (see AppendDecodedString). ok is false when raw is not a string literal
// or holds a malformed escape.
func DecodeString(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if !hasEscapeOrInvalid(inner) {
		return string(inner), true
	}
	b, ok := AppendDecodedString(make([]byte, 0, len(inner)), raw)
	if !ok {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not used again
}

// hasEscapeOrInvalid reports whether b holds a backslash or is not valid UTF-8.
func hasEscapeOrInvalid(b []byte) bool {
	ascii := true
	for _, c := range b {
		if c == '\\' {
			return true
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return !ascii && !utf8.Valid(b)
}

// AppendDecodedString appends to dst the text of the JSON string literal raw,
// quotes included, as Pi reads it: bytes that are not UTF-8 become U+FFFD as
// Node's decoder makes them (see appendValidUTF8), and escapes are decoded as
// JSON.parse does, except that a lone surrogate, which a Go string cannot
// hold, becomes U+FFFD. A malformed escape is kept as written and makes ok
// false, as does raw not being a string literal. Control characters are kept:
// this is a lax decoder, whose input a scan has found to be a string.
func AppendDecodedString(dst, raw []byte) (out []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return dst, false
	}
	s := raw[1 : len(raw)-1]
	return appendUnescaped(dst, s, utf8.Valid(s))
}

// AppendDecodedUTF8String is AppendDecodedString for a literal known to
// hold valid UTF-8, as every string of a value that Reader read without
// Syntax.BadUTF8 does: it does not check again.
func AppendDecodedUTF8String(dst, raw []byte) (out []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return dst, false
	}
	return appendUnescaped(dst, raw[1:len(raw)-1], true)
}

// appendUnescaped is AppendDecodedString of the bytes s between the quotes;
// valid says whether s is valid UTF-8, and then so is each part between its
// escapes.
func appendUnescaped(dst, s []byte, valid bool) (out []byte, ok bool) {
	ok = true
	for {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			i = len(s)
		}
		if valid {
			dst = append(dst, s[:i]...)
		} else {
			dst = appendValidUTF8(dst, s[:i])
		}
		if i == len(s) {
			return dst, ok
		}
		var n int
		var wellFormed bool
		dst, n, wellFormed = appendEscape(dst, s[i:])
		ok = ok && wellFormed
		s = s[i+n:]
	}
}

// appendEscape decodes the escape at the start of s, a backslash, and returns
// how many bytes it took and whether it was well-formed. A malformed one is
// kept as written, one byte at a time.
func appendEscape(dst, s []byte) ([]byte, int, bool) {
	if len(s) < 2 {
		return append(dst, s...), len(s), false
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		return append(dst, c), 2, true
	case 'b':
		return append(dst, '\b'), 2, true
	case 'f':
		return append(dst, '\f'), 2, true
	case 'n':
		return append(dst, '\n'), 2, true
	case 'r':
		return append(dst, '\r'), 2, true
	case 't':
		return append(dst, '\t'), 2, true
	case 'u':
		return appendUnicodeEscape(dst, s)
	}
	return append(dst, '\\'), 1, false
}

// appendUnicodeEscape decodes the \uXXXX escape at the start of s, or the
// pair of them that spells one character beyond the BMP.
func appendUnicodeEscape(dst, s []byte) ([]byte, int, bool) {
	r, ok := hex4(s[2:])
	if !ok {
		return append(dst, '\\'), 1, false
	}
	if !utf16.IsSurrogate(r) {
		return utf8.AppendRune(dst, r), 6, true
	}
	if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if low, ok := hex4(s[8:]); ok {
			if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
				return utf8.AppendRune(dst, pair), 12, true
			}
		}
	}
	return utf8.AppendRune(dst, utf8.RuneError), 6, true
}

// hex4 reads the four hexadecimal digits at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendValidUTF8 appends b to dst with each maximal subpart of an ill-formed
// UTF-8 sequence replaced by one U+FFFD, as Node's decoder (the WHATWG
// Encoding standard) replaces them when Pi reads a file: "\xE2\x82" is one
// U+FFFD, "\xFF\xFE" two, and a surrogate encoded in UTF-8 ("\xED\xA0\x80")
// three.
func appendValidUTF8(dst, b []byte) []byte {
	if utf8.Valid(b) {
		return append(dst, b...)
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		if r, size := utf8.DecodeRune(b[i:]); r != utf8.RuneError || size > 1 {
			i += size
			continue
		}
		dst = append(append(dst, b[:i]...), "\uFFFD"...)
		b, i = b[i+maximalSubpart(b[i:]):], 0
	}
	return append(dst, b...)
}

// RawOffset maps an offset in ToValidUTF8(b) back to b: the offset of the
// byte of b that the byte at pos came from (of a U+FFFD, the start of the
// bytes it replaced), or len(b) for pos at or past the end.
func RawOffset(b []byte, pos int) int {
	out := 0
	for i := 0; i < len(b); {
		if out >= pos {
			return i
		}
		if b[i] < utf8.RuneSelf {
			i, out = i+1, out+1
			continue
		}
		if r, size := utf8.DecodeRune(b[i:]); r != utf8.RuneError || size > 1 {
			i, out = i+size, out+size
			continue
		}
		i, out = i+maximalSubpart(b[i:]), out+len("\uFFFD")
	}
	return len(b)
}

// maximalSubpart returns the length of the maximal subpart at the start of b,
// which does not start with a valid UTF-8 character: the longest prefix of a
// well-formed sequence, or one byte when no well-formed sequence starts so.
func maximalSubpart[T string | []byte](b T) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(b) && b[n] >= lo && b[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return n
}
