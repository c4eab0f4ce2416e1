package search

import (
	"math/rand"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestCountRawAsDecoded: where countRaw counts a text in its raw bytes, it
// counts what the matcher finds in the decoded text, however the text is
// escaped; patterns are pieces of the text and of the escapes themselves
// ("n", "u00", "t" after a backslash). Whether the text may hold a \u escape
// is what jsonl.Reader says of its line. A quarter of the literals hold
// invalid UTF-8, which decodes to U+FFFD (WHATWG): the count holds there
// too, since such bytes never take in the first byte of a character.
func TestCountRawAsDecoded(t *testing.T) {
	r := rand.New(rand.NewSource(28))
	counted := 0
	for range 30000 {
		text := randomText(r, 1+r.Intn(30))
		pattern := []string{"n", "t", "u00", "nn", "ab", "b\"", "x/"}[r.Intn(7)]
		if r.Intn(2) == 0 {
			i := r.Intn(len(text))
			pattern = string(text[i : i+1+r.Intn(min(4, len(text)-i))])
		}
		m, err := Compile(pattern, false, false)
		if err != nil {
			t.Fatal(err)
		}
		for name, enc := range encoders {
			raw := []byte(enc(r, string(text)))
			if r.Intn(4) == 0 { // a byte or two of invalid UTF-8 between two characters
				cut := r.Intn(len(text) + 1)
				head, tail := enc(r, string(text[:cut])), enc(r, string(text[cut:]))
				raw = []byte(head[:len(head)-1] + invalidUTF8[r.Intn(len(invalidUTF8))] + tail[1:])
			}
			var rd jsonl.Reader // says, as for a line, whether the literal holds a \u escape
			if !rd.Read(raw, 0, nil).OK() {
				t.Fatalf("%s literal %s does not parse", name, raw)
			}
			n, ok := countRawInLine(t, m, raw, rd.UnicodeEscapes(), pattern)
			if !ok {
				continue
			}
			counted++
			decoded, _ := jsonl.AppendDecodedString(nil, raw)
			want := 0
			m.each(decoded, func(int, int) bool { want++; return true })
			if n != want {
				t.Fatalf("%q in %s literal %s: counted %d raw, %d decoded", pattern, name, raw, n, want)
			}
		}
	}
	if counted < 5000 {
		t.Fatalf("only %d texts counted raw", counted)
	}
}

// invalidUTF8 are byte strings that are not UTF-8: a lone lead byte, cut
// sequences (of "€", of "😀"), a byte that is never UTF-8, a lone
// continuation byte, an encoded surrogate.
var invalidUTF8 = []string{"\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xff", "\x80", "\xed\xa0\x80"}

// FuzzCountRawAsDecoded: for any JSON string literal (any bytes in it) and
// any literal pattern, a count countRaw makes is the count of the matches
// in the decoded text.
func FuzzCountRawAsDecoded(f *testing.F) {
	f.Add([]byte(`"a retry\nretry \\retry"`), "retry")
	f.Add([]byte("\"na\xc3ïve \\u00e9\""), "ïve")
	f.Add([]byte("\"\xe2\x82λλ\xed\xa0\x80λ\""), "λ")
	f.Fuzz(func(t *testing.T, raw []byte, pattern string) {
		m, err := Compile(pattern, false, false)
		if err != nil || len(raw) < 2 || raw[0] != '"' {
			return
		}
		var rd jsonl.Reader
		if res := rd.Read(raw, 0, nil); !res.OK() || res.End != len(raw) {
			return
		}
		n, ok := countRawInLine(t, m, raw, rd.UnicodeEscapes(), pattern)
		if !ok {
			return
		}
		decoded, _ := jsonl.AppendDecodedString(nil, raw)
		want := 0
		m.each(decoded, func(int, int) bool { want++; return true })
		if n != want {
			t.Fatalf("%q in %q: counted %d raw, %d decoded", pattern, raw, n, want)
		}
	})
}

// countRawInLine is countRaw of the literal raw as search makes it: from
// the occurrences of the pattern listed for the whole line, here raw
// between pieces of the pattern that make occurrences across its quotes.
// It fails the test when the count by the finder in raw alone differs.
func countRawInLine(t testing.TB, m *Matcher, raw []byte, unicode bool, pattern string) (int, bool) {
	inner := raw[1 : len(raw)-1]
	alone, ok := m.countRaw(inner, unicode, occurrences{})
	head, tail := pattern+pattern[:len(pattern)/2]+`"`, `"`+pattern[len(pattern)/2:]+pattern
	line := []byte(head + string(raw) + tail)
	n, lineOK := m.countRaw(inner, unicode, listedOccurrences(m.appendOccurrences(nil, line), len(head)+1))
	if n != alone || lineOK != ok {
		t.Fatalf("%q in %q: %d, %v in its line, %d, %v alone", pattern, raw, n, lineOK, alone, ok)
	}
	return n, ok
}
