package jsonl

import (
	"testing"
	"unicode/utf8"
)

// whatwgDecode is the UTF-8 decoder of the WHATWG Encoding standard, which
// Node, and so Pi, reads files with, written step by step as the standard
// writes it: a reference for appendValidUTF8 that shares none of its code.
func whatwgDecode(b []byte) []byte {
	var out []byte
	needed, seen, cp := 0, 0, rune(0)
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out = append(out, c)
			case c >= 0xC2 && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			needed, seen, cp, lower, upper = 0, 0, 0, 0x80, 0xBF
			out = utf8.AppendRune(out, utf8.RuneError)
			i-- // the byte is read again
			continue
		}
		lower, upper = 0x80, 0xBF
		cp, seen = cp<<6|rune(c&0x3F), seen+1
		if seen == needed {
			out = utf8.AppendRune(out, cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

// TestValidUTF8 checks the replacements of the examples in the docs, and
// those of every short sequence against the standard's decoder.
func TestValidUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"\xE2\x82":                      "\uFFFD",
		"\xFF\xFE":                      "\uFFFD\uFFFD",
		"\xED\xA0\x80":                  "\uFFFD\uFFFD\uFFFD",
		"a\xF0\x9F\x98b":                "a\uFFFDb",
		"\xC0\xAF\xE0\x80\x80":          "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD",
		"\xF4\x90\x80\x80 \xEF\xBF\xBD": "\uFFFD\uFFFD\uFFFD\uFFFD \uFFFD",
		"ok é 😀":                        "ok é 😀",
	} {
		if got := string(ToValidUTF8([]byte(in))); got != want {
			t.Errorf("ToValidUTF8(%q) = %q, want %q", in, got, want)
		}
		if got := string(AppendString(nil, in)); got != string(AppendString(nil, want)) {
			t.Errorf("AppendString(%q) = %q, want %q", in, got, AppendString(nil, want))
		}
	}
	alphabet := []byte{'a', 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF}
	var each func(b []byte)
	each = func(b []byte) {
		if got, want := ToValidUTF8(b), whatwgDecode(b); string(got) != string(want) {
			t.Fatalf("ToValidUTF8(%q) = %q, the standard %q", b, got, want)
		}
		if len(b) < 4 {
			for _, c := range alphabet {
				each(append(b, c))
			}
		}
	}
	each(nil)
}

// FuzzValidUTF8: ToValidUTF8 replaces as the standard's decoder does.
func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("\xE2\x82 \xFF\xFE \xED\xA0\x80 😀"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := ToValidUTF8(b), whatwgDecode(b); string(got) != string(want) {
			t.Fatalf("ToValidUTF8(%q) = %q, the standard %q", b, got, want)
		}
	})
}
