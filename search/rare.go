package search

import "bytes"

// finder finds one byte string in text the way the memchr crate's prefilter
// does: it looks for the needle's rarest byte (by byteRank) with
// bytes.IndexByte, which runs on vector instructions, and compares the
// needle around each hit. For a word of session text this jumps further
// than bytes.Index, which looks for the needle's first byte: the "r" of
// "retry" comes every few words, its "y" much less often.
type finder struct {
	needle []byte
	rare   int // the place in needle of its rarest byte
}

// newFinder returns a finder of needle, which is not empty.
func newFinder(needle []byte) finder {
	f := finder{needle: needle}
	for i, c := range needle {
		if byteRank[c] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	return f
}

// index returns the index of the first needle in s, -1 when there is none.
func (f finder) index(s []byte) int {
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
