package search

import (
	"math/rand"
	"testing"
	"unicode/utf8"

	"github.com/pitool/pitool/jsonl"
)

// TestCountRawAsDecoded: where countRaw counts a text in its raw bytes, it
// counts what the matcher finds in the decoded text, however the text is
// escaped; patterns are pieces of the text and of the escapes themselves
// ("n", "u00", "t" after a backslash). Whether the text may hold a \u escape
// is what jsonl.Reader says of its line. In a text of invalid UTF-8 the
// count is not used, but none found raw must mean none decoded.
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
				raw = []byte(head[:len(head)-1] + []string{"\xc3", "\xe2\x82", "\xff", "\x80"}[r.Intn(4)] + tail[1:])
			}
			var rd jsonl.Reader // says, as for a line, whether the literal holds a \u escape
			if !rd.Read(raw, 0, nil).OK() {
				t.Fatalf("%s literal %s does not parse", name, raw)
			}
			n, ok := m.countRaw(raw[1:len(raw)-1], rd.UnicodeEscapes())
			if !ok {
				continue
			}
			counted++
			decoded, _ := jsonl.AppendDecodedString(nil, raw)
			want := 0
			m.each(decoded, func(int, int) bool { want++; return true })
			if !utf8.Valid(raw) && n == 0 && want != 0 {
				t.Fatalf("%q in %s literal %q: no match counted raw, %d decoded", pattern, name, raw, want)
			}
			if utf8.Valid(raw) && n != want {
				t.Fatalf("%q in %s literal %s: counted %d raw, %d decoded", pattern, name, raw, n, want)
			}
		}
	}
	if counted < 5000 {
		t.Fatalf("only %d texts counted raw", counted)
	}
}
