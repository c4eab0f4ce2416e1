package search

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestFinderAgreesWithBytesIndex: the rare-byte finder returns what
// bytes.Index returns, on random text over a small alphabet (many partial
// hits) with needles at the ends, overlapping and absent, in texts short
// and long enough for the pair search's blocks of 32 places.
func TestFinderAgreesWithBytesIndex(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	const alphabet = "rety ab\"\\y"
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return b
	}
	for range 20000 {
		needle := random(1 + r.Intn(5))
		s := random(r.Intn([]int{40, 200}[r.Intn(2)]))
		if r.Intn(3) == 0 {
			s = append(s, needle...)
		}
		if got, want := newFinder(needle).index(s), bytes.Index(s, needle); got != want {
			t.Fatalf("index(%q, %q) = %d, bytes.Index gives %d", s, needle, got, want)
		}
	}
}

// TestFinderPicksRareByte: the finder looks for the byte of the word that
// text holds least often.
func TestFinderPicksRareByte(t *testing.T) {
	for needle, rare := range map[string]byte{"retry": 'y', "the config": 'g', "a": 'a', "éa": 0xc3} {
		f := newFinder([]byte(needle))
		if got := f.needle[f.rare]; got != rare {
			t.Errorf("%q: looks for %q, want %q", needle, got, rare)
		}
	}
	for needle, pair := range map[string]int{"retry": 0, "the config": 7, "a": -1, "yy": 1} {
		if got := newFinder([]byte(needle)).pair; got != pair {
			t.Errorf("%q: pairs the rarest byte with the byte at %d, want %d", needle, got, pair)
		}
	}
}

// FuzzFinderAgreesWithBytesIndex: whatever the text and needle, the finder
// (the pair search where it runs) returns what bytes.Index returns, and so
// does the rare byte's search alone.
func FuzzFinderAgreesWithBytesIndex(f *testing.F) {
	f.Add([]byte("a retry of the retry"), []byte("retry"))
	f.Add(bytes.Repeat([]byte("ry y r  retr"), 9), []byte("retry"))
	f.Add(append(bytes.Repeat([]byte("x"), 70), "yy"...), []byte("yy"))
	f.Fuzz(func(t *testing.T, s, needle []byte) {
		if len(needle) == 0 {
			return
		}
		want := bytes.Index(s, needle)
		fd := newFinder(needle)
		if got := fd.index(s); got != want {
			t.Fatalf("index(%q, %q) = %d, bytes.Index gives %d", s, needle, got, want)
		}
		if got := fd.indexRare(s); got != want {
			t.Fatalf("indexRare(%q, %q) = %d, bytes.Index gives %d", s, needle, got, want)
		}
	})
}
