package exporter

import (
	"bytes"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
)

// codeIndent is how far a code block is indented under its text.
const codeIndent = 2

// termStyle is the style of highlighted code on a terminal, built here: the
// styles of chroma's styles package are parsed when it is loaded, which cost
// every pitool process about 7 ms of start.
var termStyle = sync.OnceValue(func() *chroma.Style {
	return chroma.MustNewStyle("pitool-terminal", chroma.StyleEntries{
		chroma.Text:            "#d0d0d0",
		chroma.Comment:         "italic #8a8a8a",
		chroma.CommentPreproc:  "#87afd7",
		chroma.Keyword:         "bold #d787d7",
		chroma.KeywordType:     "#87d7d7",
		chroma.Name:            "#d0d0d0",
		chroma.NameBuiltin:     "#87d7d7",
		chroma.NameFunction:    "#87afff",
		chroma.NameClass:       "bold #87afff",
		chroma.NameTag:         "#d787d7",
		chroma.NameAttribute:   "#d7af87",
		chroma.LiteralString:   "#afd787",
		chroma.LiteralNumber:   "#d7af5f",
		chroma.Operator:        "#d7d7af",
		chroma.GenericDeleted:  "#ff5f5f",
		chroma.GenericInserted: "#87d787",
		chroma.GenericHeading:  "bold #87afff",
		chroma.GenericEmph:     "italic",
		chroma.GenericStrong:   "bold",
	})
})

// code draws a code block indented, in colour highlighted when its fence
// names a language chroma knows, its lines broken where wider than width.
func (d *termDraw) code(n ast.Node, width int) []string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(d.src))
	}
	code := strings.ReplaceAll(b.String(), "\t", "    ")
	indent := strings.Repeat(" ", codeIndent)
	return d.indented(func(_ ast.Node, width int) []string { return d.codeLines(n, code, width) }, n, width, indent, indent)
}

// codeLines are code's lines, highlighted or not, broken where wider than
// width.
func (d *termDraw) codeLines(n ast.Node, code string, width int) []string {
	out, ok := d.highlight(n, code)
	if !ok {
		return d.rawLines(code, width, sgrYellow)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		lines = append(lines, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
	}
	return lines
}

// highlight is code as chroma's 256-colour terminal formatter writes it,
// when colour is on and the fence's language has a lexer.
func (d *termDraw) highlight(n ast.Node, code string) (string, bool) {
	f, ok := n.(*ast.FencedCodeBlock)
	if !d.color || !ok || f.Info == nil || len(code) > maxHighlightBytes {
		return "", false
	}
	lexer := lexerForLang(string(f.Language(d.src)))
	if lexer == nil {
		return "", false
	}
	tokens, err := tokenise(code, lexer)
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	if err := formatters.TTY256.Format(&out, termStyle(), chroma.Literator(tokens...)); err != nil {
		return "", false
	}
	return out.String(), true
}
