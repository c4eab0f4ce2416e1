package redact

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// allRuleSpecs returns every shipped rule: defaults plus the optional classes.
func allRuleSpecs(t *testing.T) []RuleSpec {
	t.Helper()
	cfg, err := DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{piiTOML, pathsTOML} {
		c, err := parseTOML("extra", text)
		if err != nil {
			t.Fatal(err)
		}
		cfg.merge(c)
	}
	return cfg.Rules
}

func newTestRedactor(t testing.TB, opts Options) *Redactor {
	t.Helper()
	if opts.Salt == "" {
		opts.Salt = "test"
	}
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ruleHits returns the ids of the rules that fire on text, decoded, as the
// engine runs them (prefilter, anchoring, windows).
func ruleHits(r *Redactor, text string) []string {
	sc := &scanner{rs: r.rs}
	var ids []string
	for _, sp := range sc.scanText([]byte(text)) {
		ids = append(ids, r.rs.rules[sp.rule].id)
	}
	return ids
}

// TestRuleSamples checks every rule's own true and false positives, as a
// JSON line through RedactLine and as text through the scanner.
func TestRuleSamples(t *testing.T) {
	r := newTestRedactor(t, Options{PII: true, Paths: true})
	n := 0
	for _, spec := range allRuleSpecs(t) {
		for _, tp := range spec.TPs {
			n++
			if !slices.Contains(ruleHits(r, tp), spec.ID) {
				t.Errorf("rule %s misses its sample %q", spec.ID, tp)
			}
			checkLineRedacted(t, r, spec.ID, tp)
		}
		for _, fp := range spec.FPs {
			if slices.Contains(ruleHits(r, fp), spec.ID) {
				t.Errorf("rule %s fires on its false positive %q", spec.ID, fp)
			}
		}
	}
	if n < 25 {
		t.Fatalf("only %d samples checked", n)
	}
}

// checkLineRedacted puts text in a message and checks the line changes,
// still parses, and reports rule.
func checkLineRedacted(t *testing.T, r *Redactor, rule, text string) {
	t.Helper()
	line := messageLine(text)
	out, findings, err := r.RedactLine(line)
	if err != nil || !json.Valid(out) {
		t.Fatalf("rule %s sample %q: err %v, output %s", rule, text, err, out)
	}
	if string(out) == string(line) || len(findings) == 0 {
		t.Errorf("rule %s sample %q: line not redacted", rule, text)
	}
}

func messageLine(text string) []byte {
	line := []byte(`{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":`)
	line = appendJSONString(line, text)
	return append(line, `}]}}`...)
}

func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}

// TestControlsAreNotSecrets checks that the corpus' look-alikes (git
// hashes, UUIDs, digests, placeholder keys) fire no rule in typical context.
func TestControlsAreNotSecrets(t *testing.T) {
	r := newTestRedactor(t, Options{})
	m := loadManifest(t)
	for _, c := range m.Controls {
		for _, ctx := range []string{"// commit %s", "id: %s", "export API_KEY=\"%s\"", "sha256 %s"} {
			text := strings.ReplaceAll(ctx, "%s", c)
			if ids := ruleHits(r, text); len(ids) > 0 && !strings.HasPrefix(ctx, "export") {
				t.Errorf("control %q in %q fires %v", c, text, ids)
			}
		}
	}
}

type manifest struct {
	Planted []struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"planted"`
	Controls []string `json:"controls"`
}

func loadManifest(t *testing.T) manifest {
	t.Helper()
	b, err := os.ReadFile("../testdata/corpus/secrets/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGeneratedSamples checks the engine against plain regex matching for
// every rule: strings generated from each rule's regex that gitleaks'
// method (the regex over the whole text, then secret group, entropy and
// allowlists) accepts must also be found through the keyword prefilter,
// anchoring and windows.
func TestGeneratedSamples(t *testing.T) {
	r := newTestRedactor(t, Options{PII: true, Paths: true})
	rng := rand.New(rand.NewPCG(1, 2))
	total, negatives := 0, 0
	defer func() {
		t.Logf("%d generated samples over %d rules, %d truncated negatives", total, len(r.rs.rules), negatives)
	}()
	for id, ru := range r.rs.rules {
		if ru.re == nil {
			continue
		}
		compileAll(t, ru)
		accepted := 0
		for try := 0; try < 60 && accepted < 3; try++ {
			sample := "x " + generate(t, rng, ru.re.expr) + " y"
			if kw := ru.keywords; len(kw) > 0 && try%2 == 1 {
				sample = "x " + kw[rng.IntN(len(kw))] + " " + sample
			}
			if !referenceFinds(r, id, sample) {
				continue
			}
			accepted++
			if !slices.Contains(ruleHits(r, sample), ru.id) {
				t.Errorf("rule %s: regex accepts %q but the engine misses it", ru.id, sample)
			}
			negatives += checkTruncated(t, r, id, sample)
		}
		total += accepted
		if accepted == 0 {
			t.Errorf("rule %s: no generated sample passed its keywords, entropy and allowlists", ru.id)
		}
	}
}

// checkTruncated cuts a true sample in half: when plain regex matching no
// longer accepts it (a false-positive sample), the engine must not either.
// It returns 1 when the cut sample was such a negative.
func checkTruncated(t *testing.T, r *Redactor, id int, sample string) int {
	cut := sample[:len(sample)/2] + " y"
	if referenceFinds(r, id, cut) {
		return 0
	}
	if slices.Contains(ruleHits(r, cut), r.rs.rules[id].id) {
		t.Errorf("rule %s: regex rejects %q but the engine reports it", r.rs.rules[id].id, cut)
	}
	return 1
}

// referenceFinds applies rule id the way gitleaks does: its regex over the
// whole text, no prefilter.
func referenceFinds(r *Redactor, id int, text string) bool {
	if kw := r.rs.rules[id].keywords; len(kw) > 0 && !slices.ContainsFunc(kw, func(k string) bool {
		return strings.Contains(strings.ToLower(text), k)
	}) {
		return false
	}
	sc := &scanner{rs: r.rs}
	sc.matchAll([]byte(text), id, 0, len(text))
	return len(sc.spans) > 0
}

// generate returns a random string matching expr.
func generate(t *testing.T, rng *rand.Rand, expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	genRegex(&sb, rng, re.Simplify())
	return sb.String()
}

func genRegex(sb *strings.Builder, rng *rand.Rand, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.IntN(2) == 0 {
				c = []rune(strings.ToUpper(string(c)))[0]
			}
			sb.WriteRune(c)
		}
	case syntax.OpCharClass:
		sb.WriteRune(pickRune(rng, re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		sb.WriteByte('x')
	case syntax.OpCapture:
		genRegex(sb, rng, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			genRegex(sb, rng, sub)
		}
	case syntax.OpAlternate:
		genRegex(sb, rng, re.Sub[rng.IntN(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		for range repeatCount(rng, re) {
			genRegex(sb, rng, re.Sub[0])
		}
	}
}

func repeatCount(rng *rand.Rand, re *syntax.Regexp) int {
	lo, hi := re.Min, re.Max
	switch re.Op {
	case syntax.OpStar:
		lo, hi = 0, 4
	case syntax.OpPlus:
		lo, hi = 1, 4
	case syntax.OpQuest:
		lo, hi = 0, 1
	}
	if hi < 0 || hi > lo+24 {
		hi = lo + 24
	}
	return lo + rng.IntN(hi-lo+1)
}

// pickRune picks a rune of a class, preferring printable ASCII.
func pickRune(rng *rand.Rand, ranges []rune) rune {
	var ascii []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := max(ranges[i], 0x21); c <= min(ranges[i+1], 0x7e); c++ {
			ascii = append(ascii, c)
		}
	}
	if len(ascii) > 0 {
		return ascii[rng.IntN(len(ascii))]
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'x'
}

// compileAll compiles a rule's lazily compiled expressions, so that every
// shipped expression is known to compile.
func compileAll(t *testing.T, ru *rule) {
	t.Helper()
	ru.re.get()
	if ru.anchored != nil {
		ru.anchored.get()
	}
	for _, al := range ru.allow {
		for _, re := range al.regexes {
			re.get()
		}
	}
}
