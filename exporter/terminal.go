package exporter

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
)

// TerminalOptions say how ShowTerminal draws a transcript.
type TerminalOptions struct {
	Width int  // columns; lines are wrapped or clipped to it
	Color bool // colours and styles (a terminal, NO_COLOR unset)
	Full  bool // tool outputs and thinking unfolded
}

// MinTerminalWidth is the narrowest width ShowTerminal draws at.
const MinTerminalWidth = 40

// ShowTerminal writes the conversation of ix for a person reading it in a
// terminal: opts.Leaf's branch (or the active one), or with AllBranches
// every branch in tree order, each marked where it starts. Markdown is
// rendered (termMarkdown), a tool call takes one line with its result folded to
// its first line (to.Full unfolds), thinking is folded likewise, and every
// text from the session passes through termtext, so nothing in it reaches
// the terminal as a control sequence.
func ShowTerminal(ctx context.Context, w io.Writer, ix *jsonl.Index, opts HTMLOptions, to TerminalOptions) error {
	t, err := NewTranscript(ix, opts)
	if err != nil {
		return err
	}
	to.Width = max(to.Width, MinTerminalWidth)
	bw := bufio.NewWriterSize(w, writeBufferSize)
	s := &screen{w: bw, to: to, md: newTermMarkdown(to.Color)}
	s.head(t.Head)
	if err := t.Each(ctx, func(it *Item) bool { s.item(it); return true }); err != nil {
		return err
	}
	return bw.Flush()
}

// bodyIndent is the indent of every line under a heading, and the margin
// markdown keeps on the right.
const bodyIndent = 2

// screen writes items as lines on a terminal of to.Width columns.
type screen struct {
	w  *bufio.Writer
	to TerminalOptions
	md *termMarkdown
}

// SGR codes of the styles used.
const (
	sgrBold   = "1"
	sgrDim    = "2"
	sgrItalic = "3"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrBlue   = "34"
	sgrPurple = "35"
	sgrCyan   = "36"
)

// paint styles text with SGR codes when colour is on.
func (s *screen) paint(text string, codes ...string) string {
	if !s.to.Color || text == "" {
		return text
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + text + "\x1b[0m"
}

// line writes one line as it is: text is already visible and fits.
func (s *screen) line(text string) {
	s.w.WriteString(text)
	s.w.WriteByte('\n')
}

// plain writes a line of session text at indent, made visible and clipped.
func (s *screen) plain(indent int, text string, codes ...string) {
	text = ansi.Truncate(termtext.Visible(text), s.to.Width-indent, "…")
	s.line(strings.Repeat(" ", indent) + s.paint(text, codes...))
}

func (s *screen) head(h Head) {
	title := ansi.Truncate(termtext.Visible(h.Title), s.to.Width-4, "…")
	rule := max(0, s.to.Width-ansi.StringWidth(title)-4)
	s.line(s.paint("━━ "+title+" "+strings.Repeat("━", rule), sgrBold))
	for _, f := range []string{h.SessionID + "  " + h.Date, h.Cwd, "shown: " + h.Shown} {
		if strings.TrimSpace(f) != "" {
			s.plain(0, f, sgrDim)
		}
	}
}

// heading starts an item: a bar, who or what, and the time.
func (s *screen) heading(it *Item, who string, codes ...string) {
	s.line("")
	if it.BranchFrom != "" {
		mark := termtext.Visible("── branch from " + it.BranchFrom + " ")
		s.line(s.paint(mark+strings.Repeat("─", max(0, s.to.Width-ansi.StringWidth(mark))), sgrYellow))
	}
	text := ansi.Truncate(termtext.Visible(who), s.to.Width-len(it.Time)-5, "…")
	s.line(s.paint("▍"+text, append(codes, sgrBold)...) + s.paint(" · "+it.Time, sgrDim))
}

// item writes one item; what is aside of the conversation is left out, and
// a tool result shown with its call is not shown again.
func (s *screen) item(it *Item) {
	if it.Aside || it.ShownWith != "" {
		return
	}
	switch {
	case it.User != nil:
		s.heading(it, "User", sgrGreen)
		s.markdown(it.User.Text)
	case it.Turn != nil:
		s.turn(it)
	case it.Result != nil:
		s.heading(it, "Tool result", sgrCyan)
		s.result(it.Result)
	case it.Bash != nil:
		s.bash(it)
	case it.Custom != nil:
		s.heading(it, "["+it.Custom.Type+"]", sgrPurple)
		s.text(bodyIndent, it.Custom.Text+it.Custom.JSON)
	case it.Summary != nil && it.Summary.Compaction:
		s.heading(it, "Compaction summary", sgrYellow)
		s.markdown(it.Summary.Text)
	case it.Summary != nil:
		s.heading(it, "Branch summary", sgrYellow)
		s.markdown(it.Summary.Text)
	case it.Setting != "":
		s.line("")
		s.plain(0, "· "+it.Setting, sgrDim)
	}
}

func (s *screen) turn(it *Item) {
	tn := it.Turn
	who := "Assistant"
	if tn.Model != "" {
		who += " (" + tn.Model + ")"
	}
	s.heading(it, who, sgrBlue)
	for _, b := range tn.Blocks {
		switch b.Kind {
		case ThinkingBlock:
			s.thinking(b)
		case TextBlock:
			s.markdown(b.Text)
		case CallBlock:
			s.call(b.Call)
		}
	}
	switch tn.Stop {
	case "aborted":
		s.plain(bodyIndent, "⊘ aborted: the turn was interrupted", sgrYellow)
	case "error":
		s.plain(bodyIndent, "✗ error: "+tn.Error, sgrRed)
	}
}

func (s *screen) thinking(b Block) {
	switch {
	case b.Redacted:
		s.plain(bodyIndent, "thinking (withheld by the provider)", sgrDim)
	case strings.TrimSpace(b.Thinking) == "":
	case s.to.Full:
		s.plain(bodyIndent, "thinking:", sgrDim, sgrItalic)
		s.text(bodyIndent+2, b.Thinking)
	default:
		s.folded(bodyIndent, "thinking: ", b.Thinking, sgrDim, sgrItalic)
	}
}

// call is one line for a tool call, then its result.
func (s *screen) call(c *ToolCall) {
	s.plain(bodyIndent, "→ "+c.Name+"  "+callSummary(c), sgrCyan)
	if c.Result != nil {
		s.result(c.Result)
	}
}

// callSummary is what a tool call does, on one line.
func callSummary(c *ToolCall) string {
	switch c.Tool {
	case BashTool:
		return c.Command
	case ReadTool:
		return c.Path + c.Range
	case WriteTool:
		return fmt.Sprintf("%s (%s)", c.Path, plural(c.Lines, "line"))
	case EditTool:
		return fmt.Sprintf("%s (%s)", c.Path, plural(len(c.Edits), "edit"))
	case LsTool:
		return c.Path
	case GrepTool, FindTool:
		return strings.TrimSpace(c.Pattern + " " + c.Filter)
	}
	return strings.Join(strings.Fields(c.Args), " ")
}

// plural is "1 line", "2 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// result is a tool's output under its call, folded unless to.Full.
func (s *screen) result(r *ToolResult) {
	if r.Omitted {
		return
	}
	mark, codes := "↳ ", []string{sgrDim}
	if r.IsError {
		mark, codes = "↳ ✗ ", []string{sgrRed}
	}
	text := strings.TrimSpace(r.Text)
	if text == "" && len(r.Images) > 0 {
		text = plural(len(r.Images), "image")
	}
	if s.to.Full {
		s.plain(bodyIndent+2, strings.TrimSpace(mark), codes...)
		s.text(bodyIndent+4, text)
		return
	}
	s.folded(bodyIndent+2, mark, text, codes...)
}

func (s *screen) bash(it *Item) {
	b := it.Bash
	s.heading(it, "User ran $ "+b.Command, sgrGreen)
	s.result(&ToolResult{Text: b.Output, IsError: b.Exit != ""})
	if b.Exit != "" {
		s.plain(bodyIndent, "exit "+b.Exit, sgrRed)
	}
}

// folded writes text's first line after prefix, and how many lines follow.
func (s *screen) folded(indent int, prefix, text string, codes ...string) {
	first, rest, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line := prefix + first
	if n := strings.Count(rest, "\n") + 1; rest != "" {
		more := " (" + plural(n, "more line") + ")"
		width := s.to.Width - indent - len(more)
		s.line(strings.Repeat(" ", indent) + s.paint(ansi.Truncate(termtext.Visible(line), width, "…"), codes...) + s.paint(more, sgrDim))
		return
	}
	s.plain(indent, line, codes...)
}

// text writes session text that is not markdown at indent, every line
// wrapped to the width.
func (s *screen) text(indent int, text string) {
	text = strings.TrimSpace(text)
	for _, l := range strings.Split(text, "\n") {
		l = ansi.Hardwrap(termtext.Visible(strings.ReplaceAll(l, "\t", "    ")), s.to.Width-indent, true)
		for _, part := range strings.Split(l, "\n") {
			s.line(strings.Repeat(" ", indent) + part)
		}
	}
}

// markdown renders session markdown at the body's indent, a margin as wide
// on the right.
func (s *screen) markdown(text string) {
	for _, l := range s.md.render(strings.TrimSpace(text), s.to.Width-2*bodyIndent) {
		s.line(strings.TrimRight(strings.Repeat(" ", bodyIndent)+l, " "))
	}
}
