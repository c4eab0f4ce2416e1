package exporter

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// span is a run of inline text in one style (SGR codes, "" for none); a
// span whose text is "\n" is a hard line break.
type span struct{ text, sgr string }

// hardBreak is the span that ends a line.
var hardBreak = span{text: "\n"}

// SGR codes of inline styles, beside terminal.go's.
const (
	sgrUnderline = "4"
	sgrStrike    = "9"
	sgrHeading   = "38;5;39" // a bright blue
)

// joinSGR is the style of b inside a.
func joinSGR(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + ";" + b
}

// add appends text in style sgr, made visible (a link's destination may hold
// a control character written as an entity) with tabs as spaces.
func add(out []span, text, sgr string) []span {
	if text == "" {
		return out
	}
	return append(out, span{termtext.Visible(strings.ReplaceAll(text, "\t", " ")), sgr})
}

// inlines are n's inline children as spans, in style sgr.
func (d *termDraw) inlines(n ast.Node, sgr string) []span {
	var out []span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = d.inline(c, sgr, out)
	}
	return out
}

// inline appends one inline node's spans: emphasis, strong and
// strikethrough are styles in colour and their markers in plain text; a
// link is its text, then its destination when that differs.
func (d *termDraw) inline(n ast.Node, sgr string, out []span) []span {
	switch n := n.(type) {
	case *ast.Text:
		out = add(out, d.textValue(n), sgr)
		switch {
		case n.HardLineBreak():
			out = append(out, hardBreak)
		case n.SoftLineBreak():
			out = append(out, span{" ", sgr})
		}
		return out
	case *ast.String:
		return add(out, string(n.Value), sgr)
	case *ast.CodeSpan:
		return add(out, d.plainText(n), joinSGR(sgr, sgrCyan))
	case *ast.Emphasis:
		if n.Level == 1 {
			return d.marked(n, out, sgr, "*", sgrItalic)
		}
		return d.marked(n, out, sgr, "**", sgrBold)
	case *east.Strikethrough:
		return d.marked(n, out, sgr, "~~", sgrStrike)
	case *ast.Link:
		return d.link(n, sgr, out)
	case *ast.AutoLink:
		return add(out, string(n.Label(d.src)), joinSGR(sgr, sgrUnderline))
	case *ast.Image:
		return add(out, "[image: "+d.plainText(n)+"]", joinSGR(sgr, sgrDim))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			out = add(out, strings.ReplaceAll(string(seg.Value(d.src)), "\n", " "), joinSGR(sgr, sgrDim))
		}
		return out
	case *east.TaskCheckBox:
		if n.IsChecked {
			return add(out, d.pick("[x] ", "[✓] "), sgr)
		}
		return add(out, "[ ] ", sgr)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = d.inline(c, sgr, out)
	}
	return out
}

// textValue is a text's characters as goldmark's HTML renderer reads them:
// backslash escapes and character references resolved, except in code,
// where a line ending is a space.
func (d *termDraw) textValue(n *ast.Text) string {
	v := n.Value(d.src)
	if n.IsRaw() {
		return strings.ReplaceAll(string(v), "\n", " ")
	}
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v))))
}

// marked is n's text in code when in colour, between its markdown markers
// when plain.
func (d *termDraw) marked(n ast.Node, out []span, sgr, marker, code string) []span {
	if d.color {
		return append(out, d.inlines(n, joinSGR(sgr, code))...)
	}
	out = add(out, marker, sgr)
	out = append(out, d.inlines(n, sgr)...)
	return add(out, marker, sgr)
}

// link is the link's text underlined, then its destination in brackets
// when it is not the text itself.
func (d *termDraw) link(n *ast.Link, sgr string, out []span) []span {
	out = append(out, d.inlines(n, joinSGR(sgr, sgrUnderline))...)
	if dest := string(n.Destination); dest != "" && dest != d.plainText(n) {
		out = add(out, " ("+dest+")", joinSGR(sgr, sgrDim))
	}
	return out
}

// plainText is the text of n's inline descendants, unstyled.
func (d *termDraw) plainText(n ast.Node) string {
	var b strings.Builder
	for _, s := range d.inlines(n, "") {
		if s != hardBreak {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// spansWidth is how many columns spans take on one line.
func spansWidth(spans []span) int {
	w := 0
	for _, s := range spans {
		w += ansi.StringWidth(s.text)
	}
	return w
}

// wrap breaks spans into lines of at most width columns: at spaces, and
// inside a word only where the word alone is wider than the line.
func (d *termDraw) wrap(spans []span, width int) []string {
	w := &wrapper{d: d, width: max(width, 1)}
	for _, s := range spans {
		if s == hardBreak {
			w.endWord()
			w.endLine()
			continue
		}
		w.text(s)
	}
	w.endWord()
	if len(w.line) > 0 {
		w.endLine()
	}
	return w.lines
}

// wrapper fills lines word by word.
type wrapper struct {
	d            *termDraw
	width        int
	lines        []string
	line, word   []span
	lineW, wordW int
}

// text adds a span to the word being read; each space ends a word.
func (w *wrapper) text(s span) {
	for {
		part, rest, space := strings.Cut(s.text, " ")
		if part != "" {
			w.word = append(w.word, span{part, s.sgr})
			w.wordW += ansi.StringWidth(part)
		}
		if !space {
			return
		}
		w.endWord()
		s.text = rest
	}
}

// endWord puts the word read on the line, or on a new one when it does not
// fit, or across lines when it is wider than a whole line.
func (w *wrapper) endWord() {
	if w.wordW == 0 {
		w.word = w.word[:0]
		return
	}
	if w.lineW > 0 && w.lineW+1+w.wordW > w.width {
		w.endLine()
	}
	if w.lineW > 0 {
		w.line = append(w.line, span{" ", gapStyle(w.line[len(w.line)-1], w.word[0])})
		w.lineW++
	}
	if w.wordW <= w.width-w.lineW {
		w.line = append(w.line, w.word...)
		w.lineW += w.wordW
	} else {
		w.split()
	}
	w.word, w.wordW = w.word[:0], 0
}

// gapStyle is the style of the space between two words: theirs when they
// share it (an underlined link of two words is underlined throughout).
func gapStyle(before, after span) string {
	if before.sgr == after.sgr {
		return before.sgr
	}
	return ""
}

// split puts a word wider than a line across lines, as much on each as fits.
func (w *wrapper) split() {
	for _, s := range w.word {
		for s.text != "" {
			room := w.width - w.lineW
			part := ansi.Truncate(s.text, room, "")
			if part == "" && w.lineW > 0 {
				w.endLine()
				continue
			}
			if part == "" { // a wide character on a line narrower than it
				_, size := utf8.DecodeRuneInString(s.text)
				part = s.text[:size]
			}
			w.line = append(w.line, span{part, s.sgr})
			w.lineW += ansi.StringWidth(part)
			s.text = s.text[len(part):]
			if s.text != "" {
				w.endLine()
			}
		}
	}
}

// endLine writes the line filled so far, its spans painted.
func (w *wrapper) endLine() {
	var b strings.Builder
	for i := 0; i < len(w.line); {
		j := i + 1
		text := w.line[i].text
		for j < len(w.line) && w.line[j].sgr == w.line[i].sgr {
			text += w.line[j].text
			j++
		}
		b.WriteString(w.d.paint(text, w.line[i].sgr))
		i = j
	}
	w.lines = append(w.lines, b.String())
	w.line, w.lineW = w.line[:0], 0
}
