package exporter

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/pitool/pitool/third_party/chromalexers"
)

// slowLexer has a rule whose match backtracks for a long time before it
// succeeds: (?:a|aa)+b fails on a run of a's only after trying every way of
// splitting the run (about 1.6^n), and then a+c matches the whole text.
func slowLexer() chroma.Lexer {
	return chroma.MustNewLexer(&chroma.Config{Name: "slow-test"}, func() chroma.Rules {
		return chroma.Rules{"root": {
			{Pattern: `(?:a|aa)+b|a+c`, Type: chroma.Keyword},
			{Pattern: `.`, Type: chroma.Text},
		}}
	})
}

// TestHighlightWaitsForSlowMatches lexes a text whose first match takes far
// longer than chroma's 250 ms timeout: with the timeout the match would count
// as none and the text would come out as Text, one a at a time; without it,
// as here, the text is one Keyword, whatever the machine's load.
func TestHighlightWaitsForSlowMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a second or two of matching")
	}
	code := strings.Repeat("a", slowRun) + "c"
	start := time.Now()
	tokens, err := tokenise(code, slowLexer())
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if len(tokens) != 1 || tokens[0].Type != chroma.Keyword || tokens[0].Value != code {
		t.Fatalf("after %v: tokens %.200v, want one Keyword", elapsed, tokens)
	}
	t.Logf("the match took %v", elapsed)
}

// slowRun is the run of a's: about a second of matching here, well past the
// 250 ms (plus the fast clock's 100 ms slack) that would cut it short.
const slowRun = 31

// TestUntimedLexersLexAsChromas: the copies lex like chroma's own lexers,
// those that hand text to others (HTML to CSS and JavaScript) included.
func TestUntimedLexersLexAsChromas(t *testing.T) {
	for lang, code := range map[string]string{
		"go":       "package main\n\nfunc main() { println(\"hi\") } // c\n",
		"html":     "<html><style>p { color: red }</style><script>let x = 1 + 2;</script><p class=a>t</p></html>\n",
		"python":   "def f(x):\n    return x ** 2  # square\n",
		"bash":     "for f in *.go; do echo \"$f\"; done\n",
		"markdown": "# T\n\n```go\nx := 1\n```\n",
		"diff":     "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n",
	} {
		lexer := chromalexers.Get(lang)
		it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tokenise(code, lexer)
		if err != nil {
			t.Fatal(err)
		}
		if want := it.Tokens(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: untimed copy gives %v, chroma %v", lang, got, want)
		}
	}
}
