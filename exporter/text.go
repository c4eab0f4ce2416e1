package exporter

import (
	"bufio"
	"bytes"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/pitool/pitool/third_party/bluemonday"
	"github.com/pitool/pitool/third_party/chromalexers"
	"github.com/pitool/pitool/third_party/goldmark/extension"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	gmrenderer "github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Limits that keep one huge message from dominating the export's time or the
// page's weight. Past them, text is shown escaped but not formatted.
const (
	maxMarkdownBytes   = 256 << 10 // larger texts are shown as plain preformatted text
	maxHighlightBytes  = 16 << 10  // larger code is not highlighted
	highlightBudget    = 32 << 10  // code highlighted per page, in source bytes
	maxPreviewBytes    = 4 << 10   // a collapsed output's preview never exceeds this
	maxFullFormatBytes = 2 << 10   // a collapsed output's full text is highlighted up to this size
)

// markdown renders CommonMark + GFM (no raw HTML: goldmark drops it) with
// fenced code highlighted by chroma when allowed, then sanitizes the result
// with bluemonday, because a session is untrusted input. One markdown is used
// by one goroutine at a time (see markdowns).
type markdown struct {
	md        goldmark.Markdown
	policy    *bluemonday.Policy
	highlight bool         // highlight fenced code in the text being rendered
	buf, code bytes.Buffer // goldmark's output; one code block's HTML
	// out buffers goldmark's writes into buf (goldmark flushes it): goldmark
	// wraps a writer that is not buffered in a new 4 KB bufio.Writer per
	// text, a tenth of the bytes an export allocated.
	out *bufio.Writer
	src []byte // the text being rendered, in a buffer reused for each text
}

func newMarkdown() *markdown {
	m := &markdown{policy: sanitizer()}
	m.out = bufio.NewWriter(&m.buf)
	m.md = newGoldmark(
		goldmark.WithRendererOptions(
			gmhtml.WithHardWraps(),
			gmrenderer.WithNodeRenderers(util.Prioritized(codeBlockRenderer{m}, 100)),
		),
	)
	return m
}

// newGoldmark is goldmark reading the markdown pitool renders, for the
// page and the terminal alike: CommonMark with GitHub's extensions (tables,
// strikethrough, task lists, autolinks), then opts.
func newGoldmark(opts ...goldmark.Option) goldmark.Markdown {
	return goldmark.New(append([]goldmark.Option{goldmark.WithExtensions(extension.GFM)}, opts...)...)
}

// markdowns hands out markdown renderers to the goroutines that render page
// entries, one renderer per goroutine at a time.
type markdowns chan *markdown

func newMarkdowns(n int) markdowns {
	ms := make(markdowns, n)
	for range n {
		ms <- newMarkdown()
	}
	return ms
}

// render writes text as HTML to b, with a free renderer.
func (ms markdowns) render(b *bytes.Buffer, text string, highlight bool) {
	m := <-ms
	defer func() { ms <- m }()
	m.highlight = highlight
	m.render(b, text)
}

// sanitizer is bluemonday's policy for user content, plus the class names
// chroma and goldmark put on code.
func sanitizer() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[a-zA-Z0-9 _-]+$`)).OnElements("span", "code", "pre", "div")
	p.AllowAttrs("checked", "disabled", "type").OnElements("input")
	p.RewriteSrc(func(u *url.URL) { *u = url.URL{} }) // an image URL would be a network request
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// markdownText is message text whose HTML the entry markup asks for: the
// markdown is rendered by the goroutines that write entries, beside
// the one that decodes entries. Whether its code is highlighted was decided
// when the entry was read, in page order.
type markdownText struct {
	ms        markdowns
	text      string
	highlight bool
}

// write renders the text to b.
func (m markdownText) write(b *bytes.Buffer) {
	if m.ms != nil {
		m.ms.render(b, m.text, m.highlight)
	}
}

// render writes text to b as sanitized HTML.
func (m *markdown) render(b *bytes.Buffer, text string) {
	if len(text) > maxMarkdownBytes {
		writePlainPre(b, text)
		return
	}
	if !writePlainMarkdown(b, text, m.highlight) {
		m.convert(b, text)
	}
}

// convert writes text to b as sanitized HTML through goldmark.
func (m *markdown) convert(b *bytes.Buffer, text string) {
	m.buf.Reset()
	m.out.Reset(&m.buf)
	m.src = append(m.src[:0], text...)
	if err := m.md.Convert(m.src, m.out); err != nil {
		writePlainPre(b, text)
		return
	}
	if writeSanitizedFast(b, m.buf.Bytes()) {
		return
	}
	start := b.Len()
	if err := m.policy.SanitizeReaderToWriter(bytes.NewReader(m.buf.Bytes()), b); err != nil {
		b.Truncate(start) // what SanitizeBytes returns on an error: nothing
	}
}

// writePlainPre writes text escaped inside a <pre>.
func writePlainPre(b *bytes.Buffer, text string) {
	b.WriteString(`<pre class="plain">`)
	escapeCode(b, text)
	b.WriteString(`</pre>`)
}

// codeBlockRenderer renders fenced and indented code blocks, with chroma
// when its markdown's text may be highlighted.
type codeBlockRenderer struct{ m *markdown }

// RegisterFuncs implements gmrenderer.NodeRenderer.
func (c codeBlockRenderer) RegisterFuncs(reg gmrenderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, c.renderCode)
	reg.Register(ast.KindCodeBlock, c.renderCode)
}

func (c codeBlockRenderer) renderCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var code bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
		lang = string(f.Language(src))
	}
	var lexer chroma.Lexer
	if lang != "" && c.m.highlight {
		lexer = lexerForLang(lang)
	}
	c.m.code.Reset()
	writeHighlighted(&c.m.code, code.String(), lexer)
	_, err := w.Write(c.m.code.Bytes())
	return ast.WalkSkipChildren, err
}

// formatter writes chroma tokens as <span class>; the page carries the CSS
// (assets/chroma.css: chroma's github and github-dark styles).
var formatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(false))

// classStyle is the style the formatter is given. Writing class names, the
// formatter does not use it, so it is empty: chroma's styles package would
// parse every one of its 74 styles when pitool starts (about 16 ms).
var classStyle = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// budget bounds the code highlighted per page, in source bytes: chroma's
// lexers run at well under 1 MB/s, so past the budget code is shown escaped
// but not highlighted, and a big session still exports fast. It is spent in
// page order as entries are read, so the page does not depend on timing.
type budget struct {
	left  int  // source bytes that may still be highlighted
	spent bool // some code was left plain for want of budget
}

// take reserves n bytes of highlighting, if there are that many left.
func (b *budget) take(n int) bool {
	if !b.fits(n) {
		b.spent = true
		return false
	}
	b.left -= n
	return true
}

// fits reports whether n bytes of code may still be highlighted.
func (b *budget) fits(n int) bool {
	return n <= maxHighlightBytes && n <= b.left
}

// writeHighlighted writes code as a highlighted <pre class="chroma">, or
// escaped when no lexer is given or fits.
func writeHighlighted(b *bytes.Buffer, code string, lexer chroma.Lexer) {
	if lexer == nil {
		writePlainCode(b, code)
		return
	}
	tokens, err := tokenise(code, lexer)
	if err != nil {
		writePlainCode(b, code)
		return
	}
	writeTokens(b, tokens, code)
}

// tokenise lexes code, with adjacent tokens of one type merged, without
// chroma's match timeouts (see untimed).
func tokenise(code string, lexer chroma.Lexer) ([]chroma.Token, error) {
	it, err := chroma.Coalesce(untimed(lexer)).Tokenise(nil, code)
	if err != nil {
		return nil, err
	}
	return it.Tokens(), nil
}

// writeTokens writes tokens as a highlighted <pre class="chroma">, or code
// escaped if chroma fails.
func writeTokens(b *bytes.Buffer, tokens []chroma.Token, code string) {
	start := b.Len()
	if err := formatter.Format(b, classStyle, chroma.Literator(tokens...)); err != nil {
		b.Truncate(start)
		writePlainCode(b, code)
	}
}

// headTokens cuts tokens before the line break that ends their first lines.
func headTokens(tokens []chroma.Token, lines int) []chroma.Token {
	var head []chroma.Token
	for _, t := range tokens {
		k := 0
		for lines > 0 {
			i := strings.IndexByte(t.Value[k:], '\n')
			if i < 0 {
				break
			}
			k += i + 1
			lines--
		}
		if lines > 0 {
			head = append(head, t)
			continue
		}
		if k > 1 {
			head = append(head, chroma.Token{Type: t.Type, Value: t.Value[:k-1]})
		}
		break
	}
	return head
}

// lexerCache maps a file name's extension to its lexer (nil: none fits):
// matching a name against every lexer's patterns is slow.
var lexerCache sync.Map

// langLexers maps a fence's language to its lexer (nil: none): for a name
// chroma does not know, lexers.Get tries it against every lexer's file
// name patterns, milliseconds each time.
var langLexers sync.Map

// lexerForLang is chromalexers.Get(lang), remembered.
func lexerForLang(lang string) chroma.Lexer {
	if l, ok := langLexers.Load(lang); ok {
		lexer, _ := l.(chroma.Lexer)
		return lexer
	}
	lexer := chromalexers.Get(lang)
	langLexers.Store(lang, lexer)
	return lexer
}

// lexerForPath picks a lexer from a file name, nil when none fits.
func lexerForPath(p string) chroma.Lexer {
	if p == "" {
		return nil
	}
	base := path.Base(p)
	key := path.Ext(base)
	if key == "" {
		key = base
	}
	if l, ok := lexerCache.Load(key); ok {
		lexer, _ := l.(chroma.Lexer)
		return lexer
	}
	lexer := matchLexer(base)
	lexerCache.Store(key, lexer)
	return lexer
}

// output is a tool output or file content: shown whole when short, otherwise
// a preview of its first lines with the rest collapsed. The collapsed full text
// sits in a <noscript>, which a browser with JavaScript keeps as one inert
// string until the reader opens it, and shows as normal markup without.
//
// Formatting is deferred to the entry markup, so that it runs in the
// goroutines that write entries, beside the one that decodes them.
type output struct {
	text, preview string
	Rest          int  // lines not in the preview
	Long          bool // the preview is not the whole text
	Error         bool
	format        func(b *bytes.Buffer, text string)
	lexer         chroma.Lexer   // highlights both preview and full text, when set
	tokens        []chroma.Token // the full text lexed once, for both
	lexErr        error
}

// newOutput shows text with at most maxLines lines visible, highlighted as
// the file at path when a lexer fits its name and the budget allows. Once some
// code was left plain, the lexer is not even looked up for outputs that do
// not fit: matching a name against every lexer takes milliseconds.
func (b *budget) newOutput(text string, maxLines int, path string) *output {
	o := formatOutput(text, maxLines, writePlainCode)
	if b.spent && !b.fits(o.highlighted()) {
		return o
	}
	if lexer := lexerForPath(path); lexer != nil && b.take(o.highlighted()) {
		o.format = func(b *bytes.Buffer, s string) { writeHighlighted(b, s, lexer) }
		if o.Long && len(o.text) <= maxFullFormatBytes {
			o.lexer = lexer
		}
	}
	return o
}

// highlighted is how many source bytes the page shows highlighted for the
// output: a collapsed output counts its preview and its full text, though
// both come from one pass of the lexer over the full text.
func (o *output) highlighted() int {
	switch {
	case !o.Long:
		return len(o.text)
	case len(o.text) > maxFullFormatBytes:
		return len(o.preview)
	}
	return len(o.preview) + len(o.text)
}

// lexed returns the full text's tokens, lexing it on the first call.
func (o *output) lexed() ([]chroma.Token, error) {
	if o.tokens == nil && o.lexErr == nil {
		o.tokens, o.lexErr = tokenise(o.text, o.lexer)
	}
	return o.tokens, o.lexErr
}

// formatOutput is newOutput with any formatter of text to HTML.
func formatOutput(text string, maxLines int, format func(b *bytes.Buffer, text string)) *output {
	text = strings.ReplaceAll(text, "\t", "   ")
	preview, rest := headLines(text, maxLines)
	// a preview lacking only the final line feed shows the whole text
	long := rest > 0 || preview != strings.TrimSuffix(text, "\n")
	return &output{text: text, preview: preview, Rest: rest, Long: long, format: format}
}

// writePreview writes the first lines as HTML, or all of them when the
// output is short.
func (o *output) writePreview(b *bytes.Buffer) {
	switch {
	case !o.Long:
		o.format(b, o.text)
	case o.lexer != nil:
		tokens, err := o.lexed()
		if err != nil {
			writePlainCode(b, o.preview)
			return
		}
		writeTokens(b, headTokens(tokens, strings.Count(o.preview, "\n")+1), o.preview)
	default:
		o.format(b, o.preview)
	}
}

// writeFull writes the whole text as HTML, formatted only up to
// maxFullFormatBytes and escaped beyond, so that huge outputs cost no more
// than copying them.
func (o *output) writeFull(b *bytes.Buffer) {
	switch {
	case len(o.text) > maxFullFormatBytes:
		writePlainCode(b, o.text)
	case o.lexer != nil:
		tokens, err := o.lexed()
		if err != nil {
			writePlainCode(b, o.text)
			return
		}
		writeTokens(b, tokens, o.text)
	default:
		o.format(b, o.text)
	}
}

// writePlainCode writes text escaped in the same <pre> a highlighter writes.
func writePlainCode(b *bytes.Buffer, text string) {
	b.WriteString(`<pre class="chroma"><code>`)
	escapeCode(b, text)
	b.WriteString(`</code></pre>`)
}

// headLines returns the first n lines of text (at most maxPreviewBytes) and
// how many lines are left out.
func headLines(text string, n int) (string, int) {
	end, lines := 0, 0
	for lines < n && end < len(text) {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			end = len(text)
			break
		}
		end += i + 1
		lines++
	}
	head := strings.TrimSuffix(text[:end], "\n")
	if len(head) > maxPreviewBytes {
		head = strings.ToValidUTF8(head[:maxPreviewBytes], "") + "…"
	}
	return head, strings.Count(text[end:], "\n") + boolInt(end < len(text) && !strings.HasSuffix(text, "\n"))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
