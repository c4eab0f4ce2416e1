package exporter

import (
	"bytes"
	"flag"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/styles"
	"github.com/pitool/pitool/third_party/chromalexers"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// written returns what write writes.
func written(write func(*bytes.Buffer)) string {
	var b bytes.Buffer
	write(&b)
	return b.String()
}

// TestPreviewFromFullTokens checks that a collapsed, highlighted output's
// preview, cut from the tokens of its full text, shows the same text as the
// preview highlighted on its own.
func TestPreviewFromFullTokens(t *testing.T) {
	var src strings.Builder
	for i := range 14 {
		src.WriteString("func f" + itoa(i) + "() string { return \"a\\tb\" } // note <&>\r\n")
	}
	lexer := chromalexers.Get("go")
	b := budget{left: highlightBudget}
	o := b.newOutput(src.String(), 10, "f.go")
	if !o.Long || o.lexer == nil {
		t.Fatalf("want a collapsed, highlighted output, got Long=%v lexer=%v", o.Long, o.lexer)
	}
	got, alone := written(o.writePreview), written(func(b *bytes.Buffer) { writeHighlighted(b, o.preview, lexer) })
	if text := html.UnescapeString(tags.ReplaceAllString(got, "")); text != strings.ReplaceAll(strings.TrimSuffix(o.preview, "\r"), "\r\n", "\n") {
		t.Errorf("preview shows %q", text)
	}
	// Lexed alone, the preview may end with the newline the lexer adds.
	const tail = "</span></span></span></code></pre>"
	if !strings.HasSuffix(got, tail) || !strings.HasPrefix(alone, strings.TrimSuffix(got, tail)) {
		t.Errorf("preview markup differs:\ngot   %q\nalone %q", got, alone)
	}
	if full := written(o.writeFull); full != written(func(b *bytes.Buffer) { writeHighlighted(b, o.text, lexer) }) {
		t.Errorf("full text differs from highlighting it alone")
	}
}

// TestHeadTokens checks the cut before the line break that ends the head.
func TestHeadTokens(t *testing.T) {
	tokens, err := tokenise("a := 1\nb := 2\nc := 3\n", chromalexers.Get("go"))
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, tok := range headTokens(tokens, 2) {
		got.WriteString(tok.Value)
	}
	if got.String() != "a := 1\nb := 2" {
		t.Errorf("head is %q", got.String())
	}
}

var updateChromaCSS = flag.Bool("update-chroma-css", false, "rewrite assets/chroma.css from chroma's styles")

// TestChromaCSS checks that assets/chroma.css is what chroma writes for the
// formatter's classes in its github style, and github-dark for dark mode.
func TestChromaCSS(t *testing.T) {
	var b strings.Builder
	if err := formatter.WriteCSS(&b, styles.Get("github")); err != nil {
		t.Fatal(err)
	}
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	if err := formatter.WriteCSS(&b, styles.Get("github-dark")); err != nil {
		t.Fatal(err)
	}
	b.WriteString("}\n")
	if *updateChromaCSS {
		if err := os.WriteFile("assets/chroma.css", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b.String() != chromaCSS {
		t.Error("assets/chroma.css is stale: run go test ./exporter -run TestChromaCSS -update-chroma-css")
	}
}

// TestShortOutputIsWhole: an output the preview shows whole (a one-line
// output ending in a line feed among them) is not folded under "… more".
func TestShortOutputIsWhole(t *testing.T) {
	for _, tc := range []struct {
		text     string
		maxLines int
		long     bool
	}{
		{"one line\n", 1, false},
		{"one line", 1, false},
		{"two\nlines\n", 2, false},
		{"two\nlines\n", 1, true},
		{strings.Repeat("x", maxPreviewBytes+10) + "\n", 1, true},
	} {
		o := formatOutput(tc.text, tc.maxLines, writePlainCode)
		if o.Long != tc.long {
			t.Errorf("formatOutput(%.20q, %d).Long = %v, want %v", tc.text, tc.maxLines, o.Long, tc.long)
		}
	}
}
