package exporter

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// renderPlain is markdown drawn by termMarkdown without colour, as one
// text.
func renderPlain(md string, width int) string {
	return strings.Join(newTermMarkdown(false).render(md, width), "\n")
}

// TestTermMarkdownElements: each markdown element as the terminal shows it
// without colour.
func TestTermMarkdownElements(t *testing.T) {
	for _, c := range []struct{ name, md, want string }{
		{"paragraph wraps at spaces", "one two three four five six seven", "one two three four\nfive six seven"},
		{"a soft break is a space, a hard break a new line", "one\ntwo  \nthree", "one two\nthree"},
		{"a word wider than the line is cut", "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrst\nuvwxyz"},
		{"headings keep their level", "# One\n\n### Three", "# One\n\n### Three"},
		{"emphasis, strong and strikethrough keep their markers", "*a* **b** ~~c~~", "*a* **b** ~~c~~"},
		{"a code span is its text", "run `ls -la` now", "run ls -la now"},
		{"a line ending in a code span is a space", "a `x\ny` b", "a x y b"},
		{"escapes and references are resolved", "\\*x\\* &amp; &#65;", "*x* & A"},
		{"fenced code is indented, cut where too wide", "```go\nfunc main() { return }\n```", "  func main() { retu\n  rn }"},
		{"indented code", "    x := 1\n\n    y := 2", "  x := 1\n\n  y := 2"},
		{"an unordered list", "- a\n- b", "- a\n- b"},
		{"an ordered list aligns its items", "9. nine\n10. ten words that wrap here", "9.  nine\n10. ten words that\n    wrap here"},
		{"a nested list", "1. a\n   - b\n   - c\n2. d", "1. a\n   - b\n   - c\n2. d"},
		{"a loose list", "- a\n\n- b", "- a\n\n- b"},
		{"task items show their box", "- [ ] todo\n- [x] done", "[ ] todo\n[x] done"},
		{"a block quote", "> quoted words that go on and on", "| quoted words that\n| go on and on"},
		{"a link shows its destination", "see [the docs](https://x.io/d)", "see the docs\n(https://x.io/d)"},
		{"a link whose text is its destination shows it once", "[https://x.io](https://x.io)", "https://x.io"},
		{"an autolink", "at <https://x.io> and www.y.org", "at https://x.io and\nwww.y.org"},
		{"an image is its alt text", "![a cat](cat.png)", "[image: a cat]"},
		{"a thematic break", "a\n\n---\n\nb", "a\n\n--------\n\nb"},
		{"an HTML block is text", "<div>\n<b>x</b>\n</div>", "<div>\n<b>x</b>\n</div>"},
		{"inline HTML is text", "a <b>bold</b> b", "a <b>bold</b> b"},
		{"a table that fits", "| a | bb |\n|---|--:|\n| ccc | d |", "a   | bb\n----|---\nccc |  d"},
		{"a wide table wraps its cells", "| h | g |\n|---|---|\n| one two three four five | x |", "h                | g\n-----------------|--\none two three    | x\nfour five        |"},
		{"a table too narrow for its columns is a list", "| a | b | c | d | e | f |\n|-|-|-|-|-|-|\n| 1 | 2 | 3 | 4 | 5 | 6 |", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6"},
	} {
		if got := renderPlain(c.md, 20); got != c.want {
			t.Errorf("%s: %q drawn as\n%s\nwant\n%s", c.name, c.md, got, c.want)
		}
	}
}

// TestTermMarkdownColor: in colour, styles instead of markers, and code
// highlighted by chroma under pitool's own style.
func TestTermMarkdownColor(t *testing.T) {
	got := strings.Join(newTermMarkdown(true).render("**b** *i* `c`\n\n```go\nfunc f() {}\n```", 40), "\n")
	for _, want := range []string{"\x1b[1mb\x1b[0m", "\x1b[3mi\x1b[0m", "\x1b[36mc\x1b[0m", "\x1b[1m\x1b[38;5;176mfunc\x1b[0m", "\x1b[38;5;111mf\x1b[0m"} {
		if !strings.Contains(got, want) {
			t.Errorf("colour output lacks %q:\n%q", want, got)
		}
	}
	if strings.Contains(got, "**") {
		t.Errorf("colour output shows markers: %q", got)
	}
}

// TestTermMarkdownVisible: a control character in the text, in code, in a
// code span, or written as a character reference is shown, never sent.
func TestTermMarkdownVisible(t *testing.T) {
	md := "a \x1b[2J b\n\n```go\nx := \"\x1b]52;c;aGk=\x07\"\n```\n\n[x](&#27;[31m) `\x9b` &#27;]8;;y"
	for _, color := range []bool{false, true} {
		got := strings.Join(newTermMarkdown(color).render(md, 60), "\n")
		if strings.Contains(ansi.Strip(got), "\x1b") || strings.Contains(got, "\x1b]") || strings.Contains(got, "\x9b") || strings.Contains(got, "\x07") {
			t.Errorf("color %v: a control character reaches the terminal: %q", color, got)
		}
		if !strings.Contains(got, `\x1b[2J`) || !strings.Contains(got, `\x9b`) || !strings.Contains(got, `\x1b]8;;y`) {
			t.Errorf("color %v: the controls are not shown: %q", color, got)
		}
	}
}

// sgrOnly matches text whose escape sequences are all SGR.
var sgrOnly = regexp.MustCompile(`^(?:[^\x1b]|\x1b\[[0-9;]*m)*$`)

// checkTermLines holds lines drawn at width to the renderer's promises: none
// wider than width; plain, no escape byte; in colour, only SGR sequences.
func checkTermLines(t *testing.T, md string, width int, color bool, lines []string) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("color %v width %d: line %d is %d wide: %q\nmarkdown: %q", color, width, i+1, w, l, md)
		}
		if !color && strings.ContainsRune(l, '\x1b') {
			t.Fatalf("plain line %d has an escape: %q\nmarkdown: %q", i+1, l, md)
		}
		if color && !sgrOnly.MatchString(l) {
			t.Fatalf("colour line %d has an escape other than SGR: %q\nmarkdown: %q", i+1, l, md)
		}
	}
}

// mdPieces are the parts randomMarkdown builds documents of.
var mdPieces = []string{
	"word", "a", "longer words here", "supercalifragilisticexpialidociousandthensome", "日本語のテキスト", "🙂🙂🙂",
	"**strong**", "*em*", "~~del~~", "`code span`", "[link text](https://example.com/a/very/long/path/that/goes/on)",
	"<https://auto.example>", "![alt](x.png)", "<b>", "\n", "\n\n", "\n\n# ", "\n\n> ", "\n- ", "\n  - ", "\n    - ",
	"\n1. ", "\n123456789. ", "\n- [ ] ", "\n\n---\n\n", "\n\n```go\nfunc f() { return \"x\" } // a comment that is long\n```\n\n",
	"\n\n    indented code line that is rather long indeed\n\n", "\n\n| a | b | c |\n|---|:-:|--:|\n| one two | three four five six | 7 |\n\n",
	"\t", "  ", "\\*", "&amp;", "\x1b[2J",
}

// randomMarkdown is a document of n random pieces.
func randomMarkdown(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(mdPieces[r.IntN(len(mdPieces))])
		b.WriteByte(' ')
	}
	return b.String()
}

// TestTermMarkdownWidth: over random markdown at random widths, no line is
// wider than the width (words too wide are cut), plain output has no escape
// byte and colour output none but SGR.
func TestTermMarkdownWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	for range 400 {
		md := randomMarkdown(r, 1+r.IntN(40))
		width := minBlockWidth + r.IntN(120)
		for _, color := range []bool{false, true} {
			checkTermLines(t, md, width, color, newTermMarkdown(color).render(md, width))
		}
	}
}

// FuzzRenderTerminal: whatever the markdown, the renderer does not panic,
// keeps to the width, and writes no escape but SGR in colour and none plain.
func FuzzRenderTerminal(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(randomMarkdown(r, 1+r.IntN(20)), uint8(r.IntN(100)))
	}
	f.Add("> - 1. > - ```\nx\n```", uint8(0))
	f.Fuzz(func(t *testing.T, md string, w uint8) {
		width := minBlockWidth + int(w)
		for _, color := range []bool{false, true} {
			checkTermLines(t, md, width, color, newTermMarkdown(color).render(md, width))
		}
	})
}
