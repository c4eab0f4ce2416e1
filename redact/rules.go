package redact

import (
	"fmt"
	"regexp/syntax"
	"strings"
)

// Window sizes around a keyword hit, in bytes of decoded text. They bound
// the regex work per hit, so speed does not depend on string length.
const (
	identMax        = 50      // the identifier part of gitleaks' keyword templates
	windowBefore    = 96      // gitleaks' templates allow 50 identifier bytes before a keyword
	windowAfter     = 768     // and at most ~190 bytes from the keyword to the secret's end
	anchoredMax     = 8 << 10 // longest single-line secret an anchored rule may match
	multilineMax    = 16 << 10
	minPrefixLength = 2
	maxPrefixes     = 64
)

// assignTemplate is the part of gitleaks' generated "keyword = value" rules
// that follows the keyword: an operator must come within a few bytes.
const assignTemplate = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// rule is a compiled RuleSpec.
type rule struct {
	id          string
	re          *lazyRegexp
	anchored    *lazyRegexp // ^(?:re), run at a hit of one of its literal prefixes
	boundary    bool        // the regex starts with \b before its prefix
	group       int
	entropy     float64
	assign      bool // a gitleaks "keyword = value" template (see addAssignRule)
	identPrefix bool // anchored at the keyword; the match starts at the identifier before it
	multiline   bool // matches may span lines
	always      bool // no keyword: runs on every string
	generic     bool // a catch-all rule: a specific rule names a shared finding
	keywords    []string
	parsed      *syntax.Regexp // the simplified syntax tree of re, for prefixes
	gated       bool           // anchored, and runs only where one of its keywords occurs
	allow       []allowlist
}

// Allowlist targets.
const (
	targetSecret = iota
	targetMatch
	targetLine
)

type allowlist struct {
	target    int
	regexes   []*lazyRegexp
	stopwords []string
	never     bool // an AND condition on paths or commits, which session text never meets
}

// trigger ties a lowercase literal of the prefilter to a rule.
type trigger struct {
	rule     int
	anchored bool // the literal is where the match starts
	gate     bool // the literal is a keyword the rule needs somewhere in the string
}

// compileRule compiles one spec. It returns nil, nil for rules that only
// apply to file paths, which a session has none of.
func compileRule(s RuleSpec) (*rule, error) {
	if s.Regex == "" || s.Path != "" {
		return nil, nil
	}
	parsed, err := syntax.Parse(s.Regex, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("rule %s: %w", s.ID, err)
	}
	parsed = parsed.Simplify()
	r := &rule{id: s.ID, re: &lazyRegexp{expr: s.Regex}, parsed: parsed, group: s.SecretGroup, entropy: s.Entropy, always: len(s.Keywords) == 0}
	r.assign = strings.Contains(s.Regex, assignTemplate) && parsed.Op != syntax.OpAlternate
	r.generic = strings.Contains(s.ID, "generic") || s.ID == "env-assignment" || s.ID == "secret-phrase"
	r.multiline = matchesNewline(parsed)
	for _, k := range s.Keywords {
		r.keywords = append(r.keywords, strings.ToLower(k))
	}
	for _, a := range s.Allowlists {
		al, err := compileAllowlist(a)
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", s.ID, err)
		}
		r.allow = append(r.allow, al)
	}
	return r, nil
}

// prefixes returns the literals every match of re starts with, lowercased,
// and whether re starts with \b; ok is false when there is no such set.
func prefixes(expr string) (lits []string, boundary, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, false
	}
	return prefixesOf(re.Simplify())
}

// prefixesOf is prefixes for a parsed, simplified expression.
func prefixesOf(re *syntax.Regexp) (lits []string, boundary, ok bool) {
	if re.Op == syntax.OpConcat && len(re.Sub) > 0 && re.Sub[0].Op == syntax.OpWordBoundary {
		boundary = true
		re = &syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[1:]}
	}
	lits, _, ok = leading(re)
	return lits, boundary, ok && shortest(lits) >= minPrefixLength
}

// leading returns the literal set every match of re starts with, and
// whether re matches exactly those literals (then a following literal
// extends the set: (?:sc|ext)_ gives sc_ and ext_).
func leading(re *syntax.Regexp) (lits []string, exact bool, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		lit := strings.ToLower(string(re.Rune))
		return []string{lit}, true, isASCII(lit)
	case syntax.OpCapture:
		return leading(re.Sub[0])
	case syntax.OpConcat:
		return leadingConcat(re.Sub)
	case syntax.OpAlternate:
		return leadingAlternate(re.Sub)
	}
	return nil, false, false
}

func leadingConcat(subs []*syntax.Regexp) ([]string, bool, bool) {
	if len(subs) == 0 {
		return nil, false, false
	}
	lits, exact, ok := leading(subs[0])
	for i := 1; ok && exact && i < len(subs); i++ {
		next, nextExact, nextOK := leading(subs[i])
		if !nextOK || len(lits)*len(next) > maxPrefixes {
			return lits, false, true
		}
		lits, exact = cross(lits, next), nextExact
	}
	return lits, exact && ok, ok
}

func leadingAlternate(subs []*syntax.Regexp) ([]string, bool, bool) {
	var all []string
	exact := true
	for _, sub := range subs {
		lits, e, ok := leading(sub)
		if !ok {
			return nil, false, false
		}
		all, exact = append(all, lits...), exact && e
	}
	return all, exact, true
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

func shortest(lits []string) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// matchesNewline reports whether some match of re may contain a newline.
func matchesNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpLiteral:
		return strings.ContainsRune(string(re.Rune), '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	}
	for _, sub := range re.Sub {
		if matchesNewline(sub) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func compileAllowlist(a AllowlistSpec) (allowlist, error) {
	al := allowlist{never: strings.EqualFold(a.Condition, "AND") && (len(a.Paths) > 0 || len(a.Commits) > 0)}
	switch a.RegexTarget {
	case "match":
		al.target = targetMatch
	case "line":
		al.target = targetLine
	}
	for _, expr := range a.Regexes {
		re, err := newLazy(expr)
		if err != nil {
			return al, fmt.Errorf("allowlist: %w", err)
		}
		al.regexes = append(al.regexes, re)
	}
	for _, w := range a.StopWords {
		al.stopwords = append(al.stopwords, strings.ToLower(w))
	}
	return al, nil
}

// allows reports whether the allowlist lets a finding through as no secret.
func (a *allowlist) allows(secret, match, line string) bool {
	if a.never {
		return false
	}
	target := secret
	switch a.target {
	case targetMatch:
		target = match
	case targetLine:
		target = line
	}
	for _, re := range a.regexes {
		if target != "" && re.get().MatchString(target) {
			return true
		}
	}
	return containsStopword(secret, a.stopwords)
}

func containsStopword(secret string, words []string) bool {
	if len(words) == 0 || secret == "" {
		return false
	}
	lower := strings.ToLower(secret)
	for _, w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
