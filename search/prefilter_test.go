package search

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/pitool/pitool/jsonl"
)

// alphabet holds the characters that stress the prefilter: the ones JSON
// escapes, ones with non-ASCII case forms (k, s, the Kelvin sign, the long
// s), non-ASCII letters, an astral character, U+FFFD and control bytes.
var alphabet = []rune{'a', 'b', 'x', ' ', 'k', 'K', 's', 'S', 'ſ', 'K', 'é', 'É', 'ü', '😀', '\uFFFD',
	'"', '\\', '/', '\n', '\t', '\r', '\x01', '\x1b', '\u2028', '<', '&'}

// encoders write a text as a JSON string literal, each differently.
var encoders = map[string]func(r *rand.Rand, s string) string{
	"stringify": func(_ *rand.Rand, s string) string { return stringify(s) },
	"ascii": func(_ *rand.Rand, s string) string {
		return escapeEach(s, func(c rune) bool { return c >= 0x80 }, false)
	},
	"random": func(r *rand.Rand, s string) string {
		return escapeEach(s, func(rune) bool { return r.Intn(3) == 0 }, r.Intn(2) == 0)
	},
}

// stringify is JSON.stringify of a string.
func stringify(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		b.WriteString(short(c))
	}
	b.WriteByte('"')
	return b.String()
}

// short is a character as JSON.stringify writes it.
func short(c rune) string {
	switch c {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	}
	if c < 0x20 {
		return fmt.Sprintf(`\u%04x`, c)
	}
	return string(c)
}

// escapeEach writes s with \u escapes for the characters escape picks
// (upper-case hex when upper), a slash as \/ when picked too.
func escapeEach(s string, escape func(rune) bool, upper bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if !escape(c) {
			b.WriteString(short(c))
			continue
		}
		if c == '/' {
			b.WriteString(`\/`)
			continue
		}
		units := []uint16{uint16(c)}
		if c > 0xFFFF {
			r1, r2 := utf16.EncodeRune(c)
			units = []uint16{uint16(r1), uint16(r2)}
		}
		for _, u := range units {
			h := fmt.Sprintf(`\u%04x`, u)
			if upper {
				h = `\u` + strings.ToUpper(h[2:])
			}
			b.WriteString(h)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func randomText(r *rand.Rand, n int) []rune {
	t := make([]rune, n)
	for i := range t {
		t[i] = alphabet[r.Intn(len(alphabet))]
	}
	return t
}

// swapCase changes the case of some characters, through every case form
// Go's (?i) folds together.
func swapCase(r *rand.Rand, p []rune) string {
	out := append([]rune(nil), p...)
	for i, c := range out {
		if r.Intn(2) == 0 {
			out[i] = unicode.SimpleFold(c)
		}
	}
	return string(out)
}

// TestPrefilterKeepsMatches is the property the search rests on: whenever
// a text holds a match, the raw line that encodes it, however it is
// escaped, passes the prefilter. Patterns are pieces of the text (case
// swapped for -i) as literals and as regexps. For a plain pattern the
// prefilter read off the line's occurrences (candidateOf, search -c) is
// Candidate itself, on every line.
func TestPrefilterKeepsMatches(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	checked := 0
	for iter := 0; iter < 30000; iter++ {
		text := randomText(r, 1+r.Intn(24))
		i := r.Intn(len(text))
		j := i + 1 + r.Intn(len(text)-i)
		fold, regex := r.Intn(2) == 0, r.Intn(3) == 0
		pattern := string(text[i:j])
		if fold {
			pattern = swapCase(r, text[i:j])
		}
		if regex {
			pattern = "(?:" + regexp.QuoteMeta(pattern) + ")+.?"
		}
		m, err := Compile(pattern, regex, fold)
		if err != nil {
			t.Fatal(err)
		}
		for name, enc := range encoders {
			raw := enc(r, string(text))
			decoded, ok := jsonl.AppendDecodedString(nil, []byte(raw))
			if !ok || string(decoded) != string(text) {
				t.Fatalf("%s encoder: %q decodes to %q", name, raw, decoded)
			}
			line := `{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":` + raw + `}}`
			if m.plain && m.candidateOf([]byte(line), m.appendOccurrences(nil, []byte(line))) != m.Candidate([]byte(line)) {
				t.Fatalf("pattern %q: candidateOf and Candidate differ on %s", pattern, line)
			}
			found := false
			m.each(decoded, func(int, int) bool { found = true; return false })
			if !found {
				continue
			}
			checked++
			if !m.Candidate([]byte(line)) {
				t.Fatalf("pattern %q (regex %v, fold %v) matches %q, but its %s line %s fails the prefilter", pattern, regex, fold, string(text), name, line)
			}
		}
	}
	if checked < 30000 {
		t.Fatalf("only %d matching lines checked", checked)
	}
}

// TestPrefilterSkips shows the prefilter is a filter: lines without the
// needle or an escape of its characters are dropped.
func TestPrefilterSkips(t *testing.T) {
	for _, c := range []struct {
		pattern     string
		regex, fold bool
		line        string
		want        bool
	}{
		{"hello", false, false, `{"content":"say hello"}`, true},
		{"hello", false, false, `{"content":"say goodbye"}`, false},
		{"hello", false, false, `{"content":"say h\u0065llo"}`, true},
		{"hello", false, false, `{"content":"\u001b[31mred"}`, false}, // a control escape is no letter of the needle
		{"HeLLo", false, true, `{"content":"say hello"}`, true},
		{"HeLLo", false, true, `{"content":"say help"}`, false},
		{`say "hi"`, false, false, `{"content":"say \"hi\""}`, true},
		{`"`, false, false, `{"content":"nothing"}`, true},              // no needle: every line
		{`tree("config`, false, false, `{"content":"a config"}`, false}, // every run is required
		{`tree("config`, false, false, `{"content":"tree(\"config"}`, true},
		{`tree("config`, false, false, `{"content":"tr\u0065e(\"config"}`, true}, // an escape in the shorter run
		{`foo\d+bar`, true, false, `{"content":"foo12bar"}`, true},
		{`foo\d+bar`, true, false, `{"content":"nothing"}`, false},
		{`a|b`, true, false, `{"content":"zzz"}`, true}, // no required literal
	} {
		m, err := Compile(c.pattern, c.regex, c.fold)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Candidate([]byte(c.line)); got != c.want {
			t.Errorf("Compile(%q, %v, %v).Candidate(%s) = %v, want %v", c.pattern, c.regex, c.fold, c.line, got, c.want)
		}
	}
}

// FuzzPrefilter checks the property of TestPrefilterKeepsMatches on any
// text and pattern, the text escaped as JSON.stringify does and with
// every character \u-escaped.
func FuzzPrefilter(f *testing.F) {
	f.Add("say \"hi\"\nthere", "\"hi\"\nthe", false)
	f.Add("Kelvin K and ſ", "k AND s", true)
	f.Add("café 😀", "É 😀", true)
	f.Fuzz(func(t *testing.T, text, pattern string, fold bool) {
		text = strings.ToValidUTF8(text, "\uFFFD")
		m, err := Compile(pattern, false, fold)
		if err != nil {
			return
		}
		found := false
		m.each([]byte(text), func(int, int) bool { found = true; return false })
		if !found {
			return
		}
		for _, raw := range []string{stringify(text), escapeEach(text, func(rune) bool { return true }, false)} {
			if !m.Candidate([]byte(`{"content":` + raw + `}`)) {
				t.Fatalf("%q matches %q but %s fails the prefilter", pattern, text, raw)
			}
		}
	})
}

// TestFoldLiteralAsRegexp: the -i literal finds exactly the matches Go's
// (?i) regexp of the same literal finds.
func TestFoldLiteralAsRegexp(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	folded := 0
	for iter := 0; iter < 20000; iter++ {
		text := randomText(r, 1+r.Intn(40))
		var pattern string
		if r.Intn(4) == 0 {
			pattern = string(randomText(r, 1+r.Intn(4)))
		} else {
			i := r.Intn(len(text))
			pattern = swapCase(r, text[i:i+1+r.Intn(min(6, len(text)-i))])
		}
		m, err := Compile(pattern, false, true)
		if err != nil {
			t.Fatal(err)
		}
		if m.folded != nil {
			folded++
		}
		var got [][]int
		m.each([]byte(string(text)), func(s, e int) bool { got = append(got, []int{s, e}); return true })
		want := regexp.MustCompile("(?i)"+regexp.QuoteMeta(pattern)).FindAllIndex([]byte(string(text)), -1)
		if fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("-i %q in %q: %v, the regexp finds %v", pattern, string(text), got, want)
		}
	}
	if folded < 5000 {
		t.Fatalf("only %d patterns took the fold literal", folded)
	}
}
