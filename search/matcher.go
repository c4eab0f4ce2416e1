package search

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Matcher finds a pattern in decoded text, and tells from a raw line of a
// session file whether it may hold a match.
//
// The prefilter rests on one fact of JSON strings. A character of the text
// appears in the raw line as itself, as one of the short escapes \" \\ \/
// \b \f \n \r \t, or as a \u escape; invalid UTF-8 bytes appear as
// themselves and decode to U+FFFD. A character that is not a quote, a
// backslash, a slash, a control character or U+FFFD can therefore only be
// itself or a \u escape. The needle is the longest run of the pattern's
// required text made of such characters, so a line that holds a match holds
// the needle and the pattern's other runs, or a \u escape of one of their
// characters. With case
// folded (-i) the needle keeps only ASCII characters whose every case form
// is ASCII (not k or s, which fold to the Kelvin sign and the long s), and is
// compared with ASCII case folded. When no needle can be built (a pattern of
// quotes, a regexp with no required literal), every line is a candidate.
type Matcher struct {
	literal finder         // the case-sensitive literal, when re and folded are nil
	folded  *foldLiteral   // the literal of -i, when it has a needle
	re      *regexp.Regexp // the regexp, for -e and for -i without a needle
	needle  []byte         // the prefilter; nil: every line is a candidate
	find    finder         // finds needle, case-sensitive
	others  [][]byte       // the pattern's other runs, which a line must hold too
	fold    bool           // needle is lower case, compared with ASCII case folded
	runes   []rune         // the characters of the runs (lower case when fold), for \u escapes
	ascii   bool           // the runs are ASCII
	// plain says the pattern is a case-sensitive literal made only of
	// characters a JSON string holds as themselves or as \u escapes: in a
	// string without \u escapes its matches can be counted in the raw bytes
	// (CountRaw).
	plain bool
}

// ErrEmptyPattern is the error for a pattern that is empty.
var ErrEmptyPattern = errors.New("the pattern is empty")

// Compile builds a Matcher. The pattern is a literal unless regex is set, in
// which case it is Go RE2 syntax; ignoreCase folds case as Go's (?i) does.
func Compile(pattern string, regex, ignoreCase bool) (*Matcher, error) {
	if pattern == "" {
		return nil, ErrEmptyPattern
	}
	m := &Matcher{}
	expr := pattern
	if !regex {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	if !regex && !ignoreCase {
		m.literal = newFinder([]byte(pattern))
		m.setNeedle([]rune(pattern), false)
		m.plain = string(m.needle) == pattern
		return m, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad regexp: %w", err)
	}
	m.re = re
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("bad regexp: %w", err)
	}
	if lit, ok := longestRequired(tree.Simplify()); ok {
		m.setNeedle(lit.Rune, lit.Flags&syntax.FoldCase != 0)
	}
	if !regex && m.needle != nil {
		m.folded, m.re = newFoldLiteral([]rune(pattern), m.needle), nil
	}
	return m, nil
}

// longestRequired returns the literal node that every match of re must
// contain and that gives the longest needle.
func longestRequired(re *syntax.Regexp) (*syntax.Regexp, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return re, true
	case syntax.OpCapture, syntax.OpPlus:
		return longestRequired(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return longestRequired(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *syntax.Regexp
		bestLen := 0
		for _, sub := range re.Sub {
			if lit, ok := longestRequired(sub); ok {
				if n := len(safeRun(lit.Rune, lit.Flags&syntax.FoldCase != 0)); n > bestLen {
					best, bestLen = lit, n
				}
			}
		}
		return best, best != nil
	}
	return nil, false
}

// setNeedle makes the prefilter from text every match contains: the
// longest safe run is the needle, the other runs of two characters or more
// are required too.
func (m *Matcher) setNeedle(text []rune, fold bool) {
	runs := safeRuns(text, fold)
	if len(runs) == 0 {
		return
	}
	m.fold, m.ascii = fold, true
	for k, run := range runs {
		if k > 0 && len(run) < 2 {
			continue
		}
		for i, r := range run {
			if fold {
				run[i] = unicode.ToLower(r)
			}
			m.ascii = m.ascii && run[i] < utf8.RuneSelf
		}
		m.runes = append(m.runes, run...)
		if k == 0 {
			m.needle = []byte(string(run))
			m.find = newFinder(m.needle)
		} else {
			m.others = append(m.others, []byte(string(run)))
		}
	}
}

// safeRun returns the longest run of text whose characters appear in a raw
// JSON string only as themselves or as \u escapes (see Matcher).
func safeRun(text []rune, fold bool) []rune {
	if runs := safeRuns(text, fold); len(runs) > 0 {
		return runs[0]
	}
	return nil
}

// safeRuns returns the maximal runs of text whose characters appear in a raw
// JSON string only as themselves or as \u escapes, the longest first.
func safeRuns(text []rune, fold bool) [][]rune {
	var runs [][]rune
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && selfEncoding(text[i], fold) {
			continue
		}
		if i > start {
			runs = append(runs, append([]rune(nil), text[start:i]...))
		}
		start = i + 1
	}
	sort.SliceStable(runs, func(i, j int) bool { return len(runs[i]) > len(runs[j]) })
	return runs
}

// selfEncoding reports whether r appears in a raw JSON string as itself or
// a \u escape only, and, with fold, whether all its case forms are ASCII.
func selfEncoding(r rune, fold bool) bool {
	switch {
	case r < 0x20 || r == '"' || r == '\\' || r == '/' || r == utf8.RuneError:
		return false
	case !fold:
		return true
	case r >= utf8.RuneSelf:
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Candidate reports whether the raw line may hold a match in its decoded
// text. It never returns false for a line that does.
func (m *Matcher) Candidate(line []byte) bool {
	if m.needle == nil {
		return true
	}
	return (m.holdsNeedle(line) && m.holdsOthers(line)) || m.escapesNeedleRune(line)
}

// holdsOthers reports whether line holds every other run of the pattern.
func (m *Matcher) holdsOthers(line []byte) bool {
	for _, run := range m.others {
		if m.fold && !containsFold(line, run) || !m.fold && !bytes.Contains(line, run) {
			return false
		}
	}
	return true
}

// holdsNeedle reports whether decoded text holds the needle.
func (m *Matcher) holdsNeedle(text []byte) bool {
	if m.fold {
		return containsFold(text, m.needle)
	}
	return m.find.index(text) >= 0
}

// escapesNeedleRune reports whether line holds a \u escape of a character
// of the needle, or one that may be (a surrogate).
func (m *Matcher) escapesNeedleRune(line []byte) bool {
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte(`\u`))
		if j < 0 {
			return false
		}
		i += j + 2
		r, ok := hex4(line[i:])
		if !ok {
			continue
		}
		if r < 0x20 || (m.ascii && r >= utf8.RuneSelf && !utf16Surrogate(r)) {
			continue
		}
		if utf16Surrogate(r) {
			if !m.ascii {
				return true
			}
			continue
		}
		if m.fold {
			r = unicode.ToLower(r)
		}
		for _, n := range m.runes {
			if n == r {
				return true
			}
		}
	}
}

func utf16Surrogate(r rune) bool { return r >= 0xD800 && r < 0xE000 }

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// containsFold reports whether s holds lower, an ASCII lower-case needle,
// with ASCII case folded.
func containsFold(s, lower []byte) bool { return indexFold(s, lower) >= 0 }

// indexEither returns the first index in s of a or b, -1 when neither is.
func indexEither(s []byte, a, b byte) int {
	i := bytes.IndexByte(s, a)
	if a == b {
		return i
	}
	limit := s
	if i >= 0 {
		limit = s[:i]
	}
	if j := bytes.IndexByte(limit, b); j >= 0 {
		return j
	}
	return i
}

func equalFold(s, lower []byte) bool {
	for k, c := range s {
		if toLower(c) != lower[k] {
			return false
		}
	}
	return true
}

func toLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 0x20
	}
	return c
}

func toUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 0x20
	}
	return c
}

// each calls fn with the span of every match in text, in order, skipping
// empty matches; fn returns false to stop. A text without the needle holds
// no match, so the regexp runs only on texts that have it.
func (m *Matcher) each(text []byte, fn func(start, end int) bool) {
	if m.needle != nil && m.re != nil && !m.holdsNeedle(text) {
		return
	}
	if m.folded != nil {
		m.folded.each(text, fn)
		return
	}
	if m.re == nil {
		n := len(m.literal.needle)
		for i := 0; ; {
			j := m.literal.index(text[i:])
			if j < 0 || !fn(i+j, i+j+n) {
				return
			}
			i += j + n
		}
	}
	for _, loc := range m.re.FindAllIndex(text, -1) {
		if loc[0] < loc[1] && !fn(loc[0], loc[1]) {
			return
		}
	}
}

// countRaw counts the matches in the decoded text of a JSON string whose
// bytes between the quotes are raw, when it can without decoding: ok is
// false unless the pattern is plain (see Matcher.plain) and raw holds no \u
// escape. Invalid UTF-8 in raw changes no count: its bytes decode to U+FFFD
// (WHATWG), which a plain pattern never holds, and they never take in the
// byte that starts a character, so every character of a match is its own
// bytes in raw and the other way round. Such a pattern holds no
// backslash, so an escape's two bytes can meet a match only where the
// escaped character would be its first: an occurrence after an odd run of
// backslashes is no match, and every other one is a match of the decoded
// text, in the same order and never overlapping another. unicode says raw
// may hold a \u escape (its line has one): only then is raw looked through
// for one.
//
// The occurrences come from occ: the list of the line raw lies in, made
// once for all its texts, or, without one, the finder.
func (m *Matcher) countRaw(raw []byte, unicode bool, occ occurrences) (n int, ok bool) {
	if !m.plain || unicode && bytes.Contains(raw, []byte(`\u`)) {
		return 0, false
	}
	size := len(m.literal.needle)
	next := 0 // where in raw the next match may start
	for i := occ.next(m, raw, 0); i >= 0; i = occ.next(m, raw, next) {
		if escaped(raw, i) {
			next = i + 1
			continue
		}
		n++
		next = i + size
	}
	return n, true
}

// occurrences are where the literal occurs in a text: read off hits, the
// list of every occurrence in the line that holds the text at base
// (appendOccurrences), when listed, else found by the finder.
type occurrences struct {
	listed bool
	hits   []int
	base   int
	k      int // the first hit not read yet
}

// listedOccurrences are the occurrences of the literal in a text at base
// in a line whose occurrences are hits.
func listedOccurrences(hits []int, base int) occurrences {
	return occurrences{listed: true, hits: hits, base: base, k: sort.SearchInts(hits, base)}
}

// next returns the first occurrence of the literal in raw at or after i,
// -1 when there is none; i never goes back from one call to the next.
func (o *occurrences) next(m *Matcher, raw []byte, i int) int {
	if !o.listed {
		if j := m.literal.index(raw[i:]); j >= 0 {
			return i + j
		}
		return -1
	}
	for ; o.k < len(o.hits); o.k++ {
		at := o.hits[o.k] - o.base
		if at+len(m.literal.needle) > len(raw) {
			return -1
		}
		if at >= i {
			return at
		}
	}
	return -1
}

// appendOccurrences appends to hits the index in line of every occurrence
// of the literal, overlapping ones too, in order: what countRaw counts
// from, and what candidateOf reads.
func (m *Matcher) appendOccurrences(hits []int, line []byte) []int {
	for i := 0; ; {
		j := m.literal.index(line[i:])
		if j < 0 {
			return hits
		}
		hits = append(hits, i+j)
		i += j + 1
	}
}

// candidateOf is Candidate for a plain pattern (see Matcher.plain), whose
// needle is the whole literal, given its occurrences in line
// (appendOccurrences): the line may hold a match when it holds an
// occurrence, or a \u escape of one of the literal's characters.
func (m *Matcher) candidateOf(line []byte, hits []int) bool {
	return len(hits) > 0 || m.escapesNeedleRune(line)
}

// escaped reports whether raw[i] follows an odd run of backslashes: it is
// the character of an escape.
func escaped(raw []byte, i int) bool {
	k := i
	for k > 0 && raw[k-1] == '\\' {
		k--
	}
	return (i-k)%2 == 1
}
