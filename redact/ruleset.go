package redact

import (
	"fmt"
	"sort"
	"strings"

	"github.com/coregx/ahocorasick"
)

// literalRuleID names findings of values given with --secret or --secrets-from.
const literalRuleID = "user-secret"

// minLiteralLength is the shortest literal secret accepted: shorter values
// would rewrite ordinary words.
const minLiteralLength = 4

// ruleset is the compiled detector: rules, global allowlists, and one
// Aho-Corasick automaton over every rule's keywords and literal prefixes.
type ruleset struct {
	rules    []*rule
	global   []allowlist
	ac       *ahocorasick.Automaton
	triggers [][]trigger // by pattern id
	always   []int       // rules without keywords
	literals map[string]string
}

// compileConfig compiles c and the literal secrets into a ruleset.
func compileConfig(c *Config, literals []string) (*ruleset, error) {
	rs := &ruleset{literals: map[string]string{}}
	for _, a := range c.globalAllowlists() {
		al, err := compileAllowlist(a)
		if err != nil {
			return nil, fmt.Errorf("global %w", err)
		}
		rs.global = append(rs.global, al)
	}
	pats := map[string][]trigger{}
	for _, spec := range c.Rules {
		if err := rs.addRule(spec, pats); err != nil {
			return nil, err
		}
	}
	if err := rs.addLiterals(literals, pats); err != nil {
		return nil, err
	}
	return rs, rs.build(pats)
}

func (rs *ruleset) addRule(spec RuleSpec, pats map[string][]trigger) error {
	r, err := compileRule(spec)
	if err != nil || r == nil {
		return err
	}
	id := len(rs.rules)
	rs.rules = append(rs.rules, r)
	if r.assign {
		if err := rs.addAssignRule(r, id, spec, pats); err == nil {
			addGate(r, id, pats)
			return nil
		}
	}
	if lits, boundary, ok := prefixesOf(r.parsed); ok && !r.assign {
		if !boundary || allStartWithWordByte(lits) {
			r.anchored, r.boundary = anchored(spec.Regex), boundary
			for _, l := range lits {
				pats[l] = append(pats[l], trigger{rule: id, anchored: true})
			}
			addGate(r, id, pats)
			return nil
		}
	}
	if r.always {
		rs.always = append(rs.always, id)
	}
	for _, k := range spec.Keywords {
		k = strings.ToLower(k)
		pats[k] = append(pats[k], trigger{rule: id})
	}
	return nil
}

// identPrefixes are the leading parts of gitleaks' "keyword = value"
// template regexes: the identifier bytes before the keyword.
var identPrefixes = []string{`(?i)[\w.-]{0,50}?`, `[\w.-]{0,50}?`}

// addAssignRule makes a "keyword = value" rule anchored at its keyword
// group: without its leading identifier part, the regex is run where one of
// the group's literals starts, and the identifier is found by scanning back
// (identStart). It fails for templates of another shape, which then run in
// windows around their keywords.
func (rs *ruleset) addAssignRule(r *rule, id int, spec RuleSpec, pats map[string][]trigger) error {
	for _, p := range identPrefixes {
		rest, ok := strings.CutPrefix(spec.Regex, p)
		if !ok || !strings.HasPrefix(rest, "(?:") {
			continue
		}
		if strings.HasPrefix(p, "(?i)") {
			rest = "(?i)" + rest
		}
		lits, boundary, ok := prefixes(rest)
		if !ok || boundary {
			break
		}
		r.anchored, r.identPrefix = anchored(rest), true
		for _, l := range lits {
			pats[l] = append(pats[l], trigger{rule: id, anchored: true})
		}
		return nil
	}
	return fmt.Errorf("rule %s: not a keyword template", spec.ID)
}

// addGate makes an anchored rule's keywords a gate, as in gitleaks: the
// rule only runs in a string that contains one of them.
func addGate(r *rule, id int, pats map[string][]trigger) {
	for _, k := range r.keywords {
		pats[k] = append(pats[k], trigger{rule: id, gate: true})
		r.gated = true
	}
}

func allStartWithWordByte(lits []string) bool {
	for _, l := range lits {
		if !isWordByte(l[0]) {
			return false
		}
	}
	return true
}

// addLiterals adds the user's literal secrets as one rule matched by exact
// comparison at each prefilter hit.
func (rs *ruleset) addLiterals(values []string, pats map[string][]trigger) error {
	id := len(rs.rules)
	added := false
	for _, v := range values {
		if len(v) < minLiteralLength {
			return fmt.Errorf("secret value of %d bytes is too short (at least %d)", len(v), minLiteralLength)
		}
		lower := strings.ToLower(v)
		if _, dup := rs.literals[lower]; !dup {
			pats[lower] = append(pats[lower], trigger{rule: id, anchored: true})
		}
		rs.literals[lower] = v
		added = true
	}
	if added {
		rs.rules = append(rs.rules, &rule{id: literalRuleID})
	}
	return nil
}

// build makes the automaton over every pattern, in a stable order.
func (rs *ruleset) build(pats map[string][]trigger) error {
	keys := make([]string, 0, len(pats))
	for k := range pats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rs.triggers = make([][]trigger, len(keys))
	for i, k := range keys {
		rs.triggers[i] = pats[k]
	}
	if len(keys) == 0 {
		return nil
	}
	ac, err := ahocorasick.NewBuilder().AddStrings(keys).Build()
	if err != nil {
		return fmt.Errorf("keyword prefilter: %w", err)
	}
	rs.ac = ac
	return nil
}

// hits runs the prefilter over lowercase text.
func (rs *ruleset) hits(lower []byte) []ahocorasick.Match {
	if rs.ac == nil {
		return nil
	}
	return rs.ac.FindAllOverlapping(lower)
}
