package search

import (
	"bytes"
	"math/bits"
)

// finder finds one byte string in text the way the memchr crate's prefilter
// does: it looks for the needle's rarest byte (by byteRank) with
// bytes.IndexByte, which runs on vector instructions, and compares the
// needle around each hit. For a word of session text this jumps further
// than bytes.Index, which looks for the needle's first byte: the "r" of
// "retry" comes every few words, its "y" much less often. Where pairBlocks
// runs, a needle of two bytes or more is looked for by its two rarest
// bytes at once, 32 places a step (memchr's "packed pair"): the "y" of
// "retry" comes about four times as often as the word, "r" three bytes
// before a "y" little more often than the word.
type finder struct {
	needle []byte
	rare   int // the place in needle of its rarest byte
	pair   int // the place of its next rarest, -1 for a needle of one byte
}

// newFinder returns a finder of needle, which is not empty.
func newFinder(needle []byte) finder {
	f := finder{needle: needle, pair: -1}
	for i, c := range needle {
		if byteRank[c] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	for i, c := range needle {
		if i != f.rare && (f.pair < 0 || byteRank[c] < byteRank[needle[f.pair]]) {
			f.pair = i
		}
	}
	return f
}

// index returns the index of the first needle in s, -1 when there is none.
func (f finder) index(s []byte) int {
	if havePairAsm && f.pair >= 0 {
		return f.indexPair(s)
	}
	return f.indexRare(s)
}

// indexRare is index by the rarest byte alone.
func (f finder) indexRare(s []byte) int {
	n, c := len(f.needle), f.needle[f.rare]
	last := len(s) - (n - 1 - f.rare) // the rare byte of a needle that fits lies before last
	for i := f.rare; i < last; i++ {
		j := bytes.IndexByte(s[i:last], c)
		if j < 0 {
			return -1
		}
		i += j
		if start := i - f.rare; bytes.Equal(s[start:start+n], f.needle) {
			return start
		}
	}
	return -1
}

// indexPair is index by the two rarest bytes, 32 places where the needle
// may start at a time; the last places, fewer than 32, go to indexRare.
func (f finder) indexPair(s []byte) int {
	n := len(f.needle)
	starts := len(s) - n + 1 // the places a needle may start
	at := 0                  // the first place not looked at
	for blocks := (starts - at) / 32; blocks > 0; blocks = (starts - at) / 32 {
		b, mask := pairBlocks(s[at+f.rare:], s[at+f.pair:], f.needle[f.rare], f.needle[f.pair], blocks)
		at += 32 * b
		for ; mask != 0; mask &= mask - 1 {
			if start := at + bits.TrailingZeros32(mask); bytes.Equal(s[start:start+n], f.needle) {
				return start
			}
		}
		if b < blocks {
			at += 32
		}
	}
	if i := f.indexRare(s[at:]); i >= 0 {
		return at + i
	}
	return -1
}

// byteRank says how often a byte appears in session text, higher more
// often: English letters in their order of frequency, then space,
// punctuation that JSON and code are full of, digits, capitals; every other
// byte (controls, most punctuation, the bytes of non-ASCII characters)
// ranks lowest. Only the order matters.
var byteRank = func() (r [256]uint8) {
	for i := range r {
		r[i] = 10
	}
	for c := 'A'; c <= 'Z'; c++ {
		r[c] = 40
	}
	for c := '0'; c <= '9'; c++ {
		r[c] = 60
	}
	for _, c := range []byte(`"\/:,._-(){}[]=` + "\n") {
		r[c] = 120
	}
	const letters = "zqxjkvbpygfwmucldrhsnioate" // rarest first
	for i := range len(letters) {
		r[letters[i]] = uint8(130 + 4*i)
	}
	r[' '] = 255
	return r
}()
