package search

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestFinderAgreesWithBytesIndex: the rare-byte finder returns what
// bytes.Index returns, on random text over a small alphabet (many partial
// hits) with needles at the ends, overlapping and absent.
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
		s := random(r.Intn(40))
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
}
