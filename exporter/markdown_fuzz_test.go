package exporter

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"golang.org/x/net/html"
)

// rawHTMLMarkdown renders CommonMark as the renderers that pass raw HTML
// through do: the Markdown export's worst reader.
var rawHTMLMarkdown = goldmark.New(goldmark.WithRendererOptions(gmhtml.WithUnsafe()))

// FuzzMarkdownCode checks the Markdown export's two escapes with a
// CommonMark renderer that lets raw HTML through, parsing what it renders
// with an HTML parser: a value in an inline code span (inlineCode, as tool
// calls and commands are written) stays in that one span, with no other
// markup around it (an empty value, "“", is no span but text); and a value
// in a fenced or folded block (fence and folded, as outputs and arguments
// are written) is one code block whose text is the value (line ends and NUL
// as CommonMark reads them), inside nothing but the <details> folded writes.
func FuzzMarkdownCode(f *testing.F) {
	for _, s := range []string{"ls -la", "a`b``c", "x\ny", "a\r<script>alert(1)</script>", "a\r\n# h", "<img src=x onerror=alert(1)>",
		"```\n<script>x</script>\n```", "~~~\nx", "    indented", " ` ", strings.Repeat("line\n", 25) + "<b>", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := renderMarkdown(t, "**bash** `"+inlineCode(s)+"`\n")
		if got := elementNames(doc); !allIn(got, "p", "strong", "code") || (s != "" && strings.Count(got, "code") != 1) {
			t.Fatalf("inline code of %q renders as elements %s", s, got)
		}
		doc = renderMarkdown(t, "**out**\n\n"+folded(s, "text"))
		got := elementNames(doc)
		if s == "" {
			return
		}
		if !allIn(got, "p", "strong", "details", "summary", "pre", "code") || strings.Count(got, "pre") != 1 || strings.Count(got, "code") != 1 {
			t.Fatalf("block of %q renders as elements %s", s, got)
		}
		if text := codeText(doc); utf8.ValidString(s) && text != commonMarkText(s+"\n") {
			t.Fatalf("block of %q holds %q", s, text)
		}
	})
}

// renderMarkdown renders md and parses the HTML. CommonMark reads a lone
// CR as a line end and goldmark does not, so line ends are made LF first,
// as CommonMark renderers such as commonmark.js and markdown-it read them.
func renderMarkdown(t *testing.T, md string) *html.Node {
	var out bytes.Buffer
	md = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(md)
	if err := rawHTMLMarkdown.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// elementNames lists the elements of the body, in order.
func elementNames(doc *html.Node) string {
	var names []string
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data != "html" && n.Data != "head" && n.Data != "body" {
			names = append(names, n.Data)
		}
	})
	return strings.Join(names, " ")
}

func allIn(names string, allowed ...string) bool {
	for _, n := range strings.Fields(names) {
		if !strings.Contains(" "+strings.Join(allowed, " ")+" ", " "+n+" ") {
			return false
		}
	}
	return true
}

func codeText(doc *html.Node) string {
	var b strings.Builder
	walk(doc, func(n *html.Node) {
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Data == "code" {
			b.WriteString(n.Data)
		}
	})
	return b.String()
}

// commonMarkText is s as a CommonMark code block holds it: CR LF and CR
// read as LF, NUL as U+FFFD.
func commonMarkText(s string) string {
	return strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "\uFFFD").Replace(s)
}
