package jsonl

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16Len returns the length of s as JavaScript counts it: UTF-16 code units.
// Pi's token estimates are built on this count.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// Canonical returns raw as JSON.stringify(JSON.parse(raw)) writes it: no
// insignificant white space, strings in JSON.stringify's escaping and one
// member per repeated key (see MergeRepeatedKeys). Numbers are kept as written.
func Canonical(raw []byte) []byte {
	raw = MergeRepeatedKeys(raw)
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '"':
			end, err := skipString(raw, i)
			if err != nil {
				return append(out, raw[i:]...)
			}
			out = appendCanonicalString(out, raw[i:end])
			i = end
		case IsSpace(c):
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// appendCanonicalString appends the string literal lit as JSON.stringify
// writes the string JSON.parse reads from it. A lone surrogate, which a Go
// string cannot hold, is written as JSON.stringify writes it, an escape
// ("\ud800"), not as U+FFFD.
func appendCanonicalString(out, lit []byte) []byte {
	inner := lit[1 : len(lit)-1]
	if !bytes.Contains(inner, []byte(`\u`)) {
		s, _ := DecodeString(lit)
		return AppendString(out, s)
	}
	out = append(out, '"')
	start := 0
	for i := 0; i < len(inner); {
		if inner[i] != '\\' {
			i++
			continue
		}
		n, lone := escapeLen(inner[i:])
		if lone {
			out = appendStringBody(out, inner[start:i])
			out = append(out, `\u`...)
			out = append(out, bytes.ToLower(inner[i+2:i+6])...)
			start = i + n
		}
		i += n
	}
	out = appendStringBody(out, inner[start:])
	return append(out, '"')
}

// escapeLen returns the length of the escape at the start of s (a
// backslash), a surrogate pair taken as one, and whether it is the escape
// of a lone surrogate.
func escapeLen(s []byte) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	if s[1] != 'u' {
		return 2, false
	}
	r, ok := hex4(s[2:])
	if !ok {
		return 2, false
	}
	if !utf16.IsSurrogate(r) {
		return 6, false
	}
	if r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if low, ok := hex4(s[8:]); ok && low >= 0xDC00 && low <= 0xDFFF {
			return 12, false
		}
	}
	return 6, true
}

// appendStringBody appends the canonical form of the string whose literal
// lies between quotes in body, without the quotes.
func appendStringBody(out, body []byte) []byte {
	if len(body) == 0 {
		return out
	}
	dec, _ := appendUnescaped(nil, body, utf8.Valid(body))
	enc := AppendString(nil, string(dec))
	return append(out, enc[1:len(enc)-1]...)
}

// StringifiedLen returns JSON.stringify(value).length for a raw JSON value
// (numbers as JSON.parse reads them, JSNumbers); an
// absent value stringifies to undefined, whose length Pi never takes, so 0.
func StringifiedLen(raw []byte) int {
	if len(raw) == 0 {
		return 0
	}
	return UTF16Len(string(JSNumbers(Canonical(raw))))
}

// JSTimeMillis converts an entry timestamp as new Date(ts).getTime() does: an
// ISO string gives epoch milliseconds, a number is taken as is, null and
// false give 0 and true 1 (Date takes their number), and anything else
// (absent, an array, an object) gives NaN, which JSON writes as null.
func JSTimeMillis(raw RawMessage) RawMessage {
	if len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return raw
	}
	switch string(raw) {
	case "null", "false":
		return RawMessage("0")
	case "true":
		return RawMessage("1")
	}
	s, ok := DecodeString(raw)
	if !ok {
		return RawMessage("null")
	}
	t, ok := parseJSDate(s)
	if !ok {
		return RawMessage("null")
	}
	return strconv.AppendInt(nil, t.UnixMilli(), 10)
}

var jsDateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02",
	"2006-01",
	"2006",
}

// parseJSDate parses the ISO forms JavaScript's Date accepts. Date-only forms
// are UTC and date-time forms without an offset are local time, as in V8.
func parseJSDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range jsDateLayouts {
		loc := time.Local
		if len(layout) <= len("2006-01-02") {
			loc = time.UTC
		}
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// ParseTimestamp parses an entry's ISO timestamp.
func ParseTimestamp(s string) (time.Time, bool) { return parseJSDate(s) }

// ceilDiv4 is Math.ceil(chars / 4).
func ceilDiv4(chars int) int { return int(math.Ceil(float64(chars) / 4)) }
