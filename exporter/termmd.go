package exporter

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"
)

// termMarkdown draws markdown as lines for a terminal: goldmark parses it
// with the HTML export's extensions (newGoldmark), and each block is written
// in lines no wider than asked, in colour or in plain ASCII structure with no
// escape sequence at all. Every text from the markdown passes through
// termtext, so none of it reaches the terminal as a control sequence.
type termMarkdown struct {
	parser parser.Parser
	color  bool
}

// newTermMarkdown is a terminal renderer, in colour or plain.
func newTermMarkdown(color bool) *termMarkdown {
	return &termMarkdown{parser: newGoldmark().Parser(), color: color}
}

// render returns text's lines, none wider than width columns.
func (m *termMarkdown) render(text string, width int) []string {
	src := []byte(termtext.VisibleText(text))
	doc := m.parser.Parse(gmtext.NewReader(src))
	d := &termDraw{color: m.color, src: src}
	return d.children(doc, max(width, minBlockWidth))
}

// minBlockWidth is the narrowest a block is drawn at, however deep it is
// nested (see indented).
const minBlockWidth = 8

// termDraw draws one markdown document.
type termDraw struct {
	color bool
	src   []byte
}

// children draws n's blocks one after another, a blank line between two
// unless they are in a tight list.
func (d *termDraw) children(n ast.Node, width int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := d.block(c, width)
		if len(out) > 0 && len(lines) > 0 && !inTightList(c) {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// inTightList reports whether n is an item of a tight list, or a block in
// one: those follow the block before them without a blank line.
func inTightList(n ast.Node) bool {
	p := n.Parent()
	if _, ok := p.(*ast.ListItem); ok {
		p = p.Parent()
	}
	l, ok := p.(*ast.List)
	return ok && l.IsTight
}

// block draws one block at width.
func (d *termDraw) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return d.wrap(d.inlines(n, ""), width)
	case *ast.Heading:
		return d.heading(n, width)
	case *ast.ThematicBreak:
		return []string{d.paint(d.pick("--------", "────────"), sgrDim)}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return d.code(n, width)
	case *ast.Blockquote:
		bar := d.paint(d.pick("| ", "│ "), sgrDim)
		return d.indented(d.children, n, width, bar, bar)
	case *ast.List:
		return d.list(n, width)
	case *ast.HTMLBlock:
		return d.htmlBlock(n, width)
	case *east.Table:
		return d.table(n, width)
	}
	return d.children(n, width)
}

// pick is plain's text, or colour's.
func (d *termDraw) pick(plain, color string) string {
	if d.color {
		return color
	}
	return plain
}

// paint styles text with SGR codes when colour is on.
func (d *termDraw) paint(text string, codes ...string) string {
	sgr := strings.Join(codes, ";")
	if !d.color || text == "" || sgr == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}

// heading is its level's hashes and its text, bold.
func (d *termDraw) heading(n *ast.Heading, width int) []string {
	style := joinSGR(sgrBold, sgrHeading)
	marks := []span{{text: strings.Repeat("#", n.Level) + " ", sgr: style}}
	return d.wrap(append(marks, d.inlines(n, style)...), width)
}

// list draws each item under its marker, its lines after the first
// indented by the marker's width.
func (d *termDraw) list(n *ast.List, width int) []string {
	var items []ast.Node
	var markers []string
	markWidth := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		items = append(items, c)
		markers = append(markers, d.marker(n, c, n.Start+len(markers)))
		markWidth = max(markWidth, ansi.StringWidth(markers[len(markers)-1]))
	}
	var out []string
	for i, item := range items {
		if i > 0 && !n.IsTight {
			out = append(out, "")
		}
		mark := markers[i] + strings.Repeat(" ", markWidth-ansi.StringWidth(markers[i]))
		out = append(out, d.indented(d.children, item, width, mark, strings.Repeat(" ", markWidth))...)
	}
	return out
}

// marker is an item's bullet or number; a task item has none, its check
// box stands for it.
func (d *termDraw) marker(n *ast.List, item ast.Node, num int) string {
	switch {
	case n.IsOrdered():
		return strconv.Itoa(num) + string(n.Marker) + " "
	case isTask(item):
		return ""
	}
	return d.paint(d.pick("- ", "• "), sgrDim)
}

// isTask reports whether a list item starts with a task's check box.
func isTask(item ast.Node) bool {
	if text := item.FirstChild(); text != nil {
		_, ok := text.FirstChild().(*east.TaskCheckBox)
		return ok
	}
	return false
}

// indented draws n with draw at width less the prefixes', its first line
// after first and the others after rest (first and rest are as wide).
// Nested so deep that fewer than minBlockWidth columns would be left, n is
// drawn at width without them: no line is ever wider than width.
func (d *termDraw) indented(draw func(ast.Node, int) []string, n ast.Node, width int, first, rest string) []string {
	w := ansi.StringWidth(rest)
	if width-w < minBlockWidth {
		return draw(n, width)
	}
	return prefixLines(draw(n, width-w), first, rest)
}

// prefixLines puts first before the first line and rest before the others;
// an item with no lines still shows its marker.
func prefixLines(lines []string, first, rest string) []string {
	if len(lines) == 0 {
		return []string{strings.TrimRight(first, " ")}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			p = strings.TrimRight(p, " ")
		}
		out[i] = p + l
	}
	return out
}

// htmlBlock shows raw HTML as the text it is, its lines cut to the width.
func (d *termDraw) htmlBlock(n *ast.HTMLBlock, width int) []string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(d.src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(d.src))
	}
	return d.rawLines(b.String(), width, sgrDim)
}

// rawLines is text shown line for line, each line broken where it is
// wider than width, in the style given.
func (d *termDraw) rawLines(text string, width int, codes ...string) []string {
	text = strings.TrimRight(strings.ReplaceAll(text, "\t", "    "), "\n")
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, part := range strings.Split(ansi.Hardwrap(termtext.Visible(l), width, true), "\n") {
			out = append(out, d.paint(part, codes...))
		}
	}
	return out
}
