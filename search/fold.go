package search

import (
	"unicode"
	"unicode/utf8"
)

// foldLiteral finds a literal with case folded as Go's (?i) folds it
// (simple folding: a character matches every character of its fold orbit),
// faster than the regexp: it looks for the needle, a run of ASCII
// characters of the literal whose case forms are all ASCII, and checks the
// characters before and after it.
type foldLiteral struct {
	before, after []rune // the literal's characters around the needle
	needle        []byte // lower case
}

// newFoldLiteral splits pattern around needle, which safeRun took from it.
func newFoldLiteral(pattern []rune, needle []byte) *foldLiteral {
	n := len(needle) // ASCII: one byte per character
	for i := 0; i+n <= len(pattern); i++ {
		if foldEqualASCII(pattern[i:i+n], needle) {
			return &foldLiteral{before: pattern[:i], after: pattern[i+n:], needle: needle}
		}
	}
	panic("search: the needle is not in the pattern")
}

func foldEqualASCII(r []rune, lower []byte) bool {
	for i, c := range r {
		if unicode.ToLower(c) != rune(lower[i]) {
			return false
		}
	}
	return true
}

// each calls fn with every match in text, leftmost first, not
// overlapping, until fn returns false.
func (f *foldLiteral) each(text []byte, fn func(start, end int) bool) {
	from := 0 // where the next match may start
	for i := 0; i+len(f.needle) <= len(text); {
		j := indexFold(text[i:], f.needle)
		if j < 0 {
			return
		}
		at := i + j
		i = at + 1
		start, ok := f.matchBefore(text, at)
		if !ok || start < from {
			continue
		}
		end, ok := f.matchAfter(text, at+len(f.needle))
		if !ok {
			continue
		}
		if !fn(start, end) {
			return
		}
		from, i = end, max(i, end)
	}
}

// matchBefore checks the characters before the needle found at at, from
// the last back, and returns where the match starts.
func (f *foldLiteral) matchBefore(text []byte, at int) (int, bool) {
	for k := len(f.before) - 1; k >= 0; k-- {
		r, size := utf8.DecodeLastRune(text[:at])
		if size == 0 || !foldEqual(r, f.before[k]) {
			return 0, false
		}
		at -= size
	}
	return at, true
}

// matchAfter checks the characters after the needle, which ends at at, and
// returns where the match ends.
func (f *foldLiteral) matchAfter(text []byte, at int) (int, bool) {
	for _, want := range f.after {
		r, size := utf8.DecodeRune(text[at:])
		if size == 0 || !foldEqual(r, want) {
			return 0, false
		}
		at += size
	}
	return at, true
}

// foldEqual reports whether a and b are in one simple fold orbit.
func foldEqual(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// indexFold is the first index of the lower-case ASCII needle in s with
// ASCII case folded, -1 when none.
func indexFold(s, lower []byte) int {
	first, upper := lower[0], toUpper(lower[0])
	for i := 0; i+len(lower) <= len(s); i++ {
		j := indexEither(s[i:len(s)-len(lower)+1], first, upper)
		if j < 0 {
			return -1
		}
		i += j
		if equalFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}
