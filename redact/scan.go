package redact

import (
	"bytes"
	"math"
	"slices"
	"sort"

	"github.com/coregx/ahocorasick"
)

// span is one detected secret inside a decoded string.
type span struct {
	start, end int
	rule       int
}

// window is a stretch of text one rule's regex must search.
type window struct {
	rule, start, end int
}

// scanner holds the per-call scratch of a scan, reused through a pool.
type scanner struct {
	rs      *ruleset
	lower   []byte
	decoded []byte // the decoded text of the string being scanned
	key     []byte // the decoded text of the key being read
	open    []bool // by rule: a gate keyword occurs in the current string
	opened  []int
	walker  walker // the line walker, reused
	wins    []window
	spans   []span
}

// scanText finds the secrets in text and returns them sorted by start.
func (s *scanner) scanText(text []byte) []span {
	s.lower = appendLower(s.lower[:0], text)
	hits := s.rs.hits(s.lower)
	if len(hits) == 0 && len(s.rs.always) == 0 {
		return nil
	}
	return s.scanHits(text, hits)
}

// scanHits runs the rules the prefilter hits point at.
func (s *scanner) scanHits(text []byte, hits []ahocorasick.Match) []span {
	s.spans, s.wins = s.spans[:0], s.wins[:0]
	s.openGates(hits)
	for _, h := range hits {
		for _, t := range s.rs.triggers[h.PatternID] {
			if !t.gate && (!s.rs.rules[t.rule].gated || s.open[t.rule]) {
				s.onHit(text, h, t)
			}
		}
	}
	s.runWindows(text)
	for _, id := range s.rs.always {
		s.matchAll(text, id, 0, len(text))
	}
	return s.sorted()
}

// openGates marks the gated rules whose keywords occur among hits.
func (s *scanner) openGates(hits []ahocorasick.Match) {
	if len(s.open) != len(s.rs.rules) {
		s.open = make([]bool, len(s.rs.rules))
	}
	for _, id := range s.opened {
		s.open[id] = false
	}
	s.opened = s.opened[:0]
	for _, h := range hits {
		for _, t := range s.rs.triggers[h.PatternID] {
			if t.gate && !s.open[t.rule] {
				s.open[t.rule] = true
				s.opened = append(s.opened, t.rule)
			}
		}
	}
}

func (s *scanner) onHit(text []byte, h ahocorasick.Match, t trigger) {
	r := s.rs.rules[t.rule]
	switch {
	case r.id == literalRuleID:
		if want, ok := s.rs.literals[string(s.lower[h.Start:h.End])]; ok && string(text[h.Start:h.End]) == want {
			s.spans = append(s.spans, span{h.Start, h.End, t.rule})
		}
	case t.anchored && r.identPrefix && !assignmentFollows(text, h.End):
	case t.anchored:
		s.matchAnchored(text, h.Start, t.rule)
	default:
		s.addWindow(text, h, t.rule)
	}
}

// matchAnchored runs a rule whose matches start with a literal at pos.
func (s *scanner) matchAnchored(text []byte, pos, id int) {
	r := s.rs.rules[id]
	if r.boundary && pos > 0 && isWordByte(text[pos-1]) {
		return
	}
	end := lineEnd(text, pos, anchoredMax)
	if r.multiline {
		end = min(len(text), pos+multilineMax)
	}
	re := r.anchored.get()
	if !re.Match(text[pos:end]) {
		return
	}
	m := re.FindSubmatchIndex(text[pos:end])
	m = shift(m, pos)
	if r.identPrefix {
		m[0] = identStart(text, pos)
	}
	s.candidate(text, id, m)
}

// addWindow records the stretch around a keyword hit, merged with the
// previous window of the same rule when they overlap.
func (s *scanner) addWindow(text []byte, h ahocorasick.Match, id int) {
	start, end := max(0, h.Start-windowBefore), min(len(text), h.End+windowAfter)
	if !s.rs.rules[id].multiline {
		start, end = lineStart(text, h.Start, start), lineEnd(text, h.End, end-h.End)
	} else {
		end = min(len(text), h.End+multilineMax)
	}
	for i := len(s.wins) - 1; i >= 0; i-- {
		if w := &s.wins[i]; w.rule == id && start <= w.end {
			w.end = max(w.end, end)
			return
		}
	}
	s.wins = append(s.wins, window{id, start, end})
}

func (s *scanner) runWindows(text []byte) {
	for _, w := range s.wins {
		s.matchAll(text, w.rule, w.start, w.end)
	}
}

func (s *scanner) matchAll(text []byte, id, start, end int) {
	for _, m := range s.rs.rules[id].re.get().FindAllSubmatchIndex(text[start:end], -1) {
		s.candidate(text, id, shift(m, start))
	}
}

// candidate applies gitleaks' secret group, entropy and allowlist checks to
// a regex match (absolute submatch indexes m) and keeps it if it survives.
func (s *scanner) candidate(text []byte, id int, m []int) {
	r := s.rs.rules[id]
	start, end := secretBounds(r, m)
	start, end = trimNewlines(text, start, end)
	if start >= end {
		return
	}
	secret, match := string(text[start:end]), string(text[m[0]:m[1]])
	if r.entropy > 0 && entropy(secret) <= r.entropy {
		return
	}
	line := string(text[lineStart(text, m[0], 0):lineEnd(text, m[1], len(text))])
	if allowed(s.rs.global, secret, match, line) || allowed(r.allow, secret, match, line) {
		return
	}
	s.spans = append(s.spans, span{start, end, id})
}

// secretBounds picks the secret inside a match: the rule's secretGroup, else
// the first non-empty group, else the whole match.
func secretBounds(r *rule, m []int) (int, int) {
	if r.group > 0 && 2*r.group+1 < len(m) {
		return m[2*r.group], m[2*r.group+1]
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return m[0], m[1]
}

func trimNewlines(text []byte, start, end int) (int, int) {
	for start < end && text[start] == '\n' {
		start++
	}
	for end > start && text[end-1] == '\n' {
		end--
	}
	return start, end
}

func allowed(lists []allowlist, secret, match, line string) bool {
	for i := range lists {
		if lists[i].allows(secret, match, line) {
			return true
		}
	}
	return false
}

// sorted orders spans by start (longest first) and drops exact duplicates.
func (s *scanner) sorted() []span {
	sort.Slice(s.spans, func(i, j int) bool {
		a, b := s.spans[i], s.spans[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		if ga, gb := s.rs.rules[a.rule].generic, s.rs.rules[b.rule].generic; ga != gb {
			return gb
		}
		return a.rule < b.rule
	})
	out := s.spans[:0]
	for i, sp := range s.spans {
		if i == 0 || sp != s.spans[i-1] {
			out = append(out, sp)
		}
	}
	return out
}

// assignmentFollows is a necessary condition of gitleaks' "keyword = value"
// template (assignTemplate) at a keyword ending at pos: the rest of the
// keyword's identifier, at most 20 identifier or blank bytes, at most 3
// space or quote bytes, then an assignment operator.
func assignmentFollows(text []byte, pos int) bool {
	pos = skipWhile(text, pos, 32, func(c byte) bool { return isWordByte(c) || c == '.' || c == '-' })
	pos = skipWhile(text, pos, 20, func(c byte) bool { return isWordByte(c) || c == '.' || c == '-' || c == ' ' || c == '\t' })
	pos = skipWhile(text, pos, 3, func(c byte) bool { return isSpace(c) || c == '\'' || c == '"' })
	if pos >= len(text) {
		return false
	}
	switch text[pos] {
	case '=', '>', ':', '|', '?', ',':
		return true
	}
	return false
}

// skipWhile returns the position after at most n bytes from pos that satisfy ok.
func skipWhile(text []byte, pos, n int, ok func(byte) bool) int {
	for end := min(len(text), pos+n); pos < end && ok(text[pos]); pos++ {
	}
	return pos
}

func shift(m []int, by int) []int {
	for i := range m {
		if m[i] >= 0 {
			m[i] += by
		}
	}
	return m
}

// identStart returns where the identifier run ([\w.-], at most identMax
// bytes) that ends at pos begins.
func identStart(text []byte, pos int) int {
	start := pos
	for start > 0 && pos-start < identMax {
		c := text[start-1]
		if !isWordByte(c) && c != '.' && c != '-' {
			break
		}
		start--
	}
	return start
}

// lineStart returns the start of the line holding pos, but not before floor.
func lineStart(text []byte, pos, floor int) int {
	if i := bytes.LastIndexByte(text[floor:pos], '\n'); i >= 0 {
		return floor + i + 1
	}
	return floor
}

// lineEnd returns the end of the line holding pos, at most limit bytes on.
func lineEnd(text []byte, pos, limit int) int {
	end := min(len(text), pos+limit)
	if i := bytes.IndexByte(text[pos:end], '\n'); i >= 0 {
		return pos + i
	}
	return end
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// lowerASCII maps each byte to itself with ASCII letters lowercased.
var lowerASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// appendLower appends text with ASCII letters lowercased; lengths match.
func appendLower[T string | []byte](dst []byte, text T) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(text))[:n+len(text)]
	out := dst[n:]
	for i := 0; i < len(text); i++ {
		out[i] = lowerASCII[text[i]]
	}
	return dst
}

// entropy is the Shannon entropy of s in bits per character, as gitleaks
// computes it.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	var h float64
	for _, k := range counts {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}
