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
// ("n", "u00", "t" after a backslash).
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
			if !utf8.Valid(raw) {
				continue
			}
			n, ok := m.countRaw(raw[1 : len(raw)-1])
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
