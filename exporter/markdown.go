package exporter

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// mdOpenLines is how many lines of a tool output Markdown shows before
// folding the whole output into a <details> block.
const mdOpenLines = 20

// ExportMarkdown writes one branch (opts.Leaf's, or the active one) as
// Markdown: turns in order, tool calls and results in fenced blocks.
// AllBranches is ignored: Markdown is linear.
func ExportMarkdown(ctx context.Context, w io.Writer, ix *jsonl.Index, opts HTMLOptions) error {
	opts.AllBranches = false
	t, err := NewTranscript(ix, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, writeBufferSize)
	m := &mdWriter{w: bw}
	m.head(t.Head)
	if err := t.Each(ctx, func(it *Item) bool { m.item(it); return true }); err != nil {
		return err
	}
	return bw.Flush()
}

// mdWriter writes the transcript's items as Markdown, in order: a tool
// result comes after its call's turn, where it is in the session.
type mdWriter struct {
	w *bufio.Writer
}

func (m *mdWriter) printf(format string, args ...any) { fmt.Fprintf(m.w, format, args...) }

func (m *mdWriter) head(h Head) {
	m.printf("# %s\n\n", h.Title)
	m.printf("- Session: `%s`\n", h.SessionID)
	if h.Date != "" {
		m.printf("- Date: %s\n", h.Date)
	}
	if h.Cwd != "" {
		m.printf("- Directory: `%s`\n", h.Cwd)
	}
	m.printf("- Shown: %s\n", h.Shown)
	if h.Notes != "" {
		m.printf("- Export: %s\n", h.Notes)
	}
	m.printf("\n---\n")
}

// item writes one item; what is aside of the conversation is left out.
func (m *mdWriter) item(it *Item) {
	if it.Aside {
		return
	}
	switch {
	case it.User != nil:
		m.section("User", it, it.User.Text)
	case it.Turn != nil:
		m.turn(it)
	case it.Result != nil:
		m.toolResult(it.Result)
	case it.Bash != nil:
		m.bash(it.Bash)
	case it.Custom != nil:
		m.section("["+it.Custom.Type+"]", it, customText(it.Custom))
	case it.Summary != nil && it.Summary.Compaction:
		m.section("Compaction summary", it, it.Summary.Text)
	case it.Summary != nil:
		m.section("Branch summary", it, it.Summary.Text)
	case it.Setting != "":
		m.printf("\n*%s*\n", it.Setting)
	}
}

// customText is a custom message's text; a custom_message entry's content
// that is not a string is shown as JSON.
func customText(c *Custom) string {
	if c.Message {
		return c.Text
	}
	if s, ok := jsonl.DecodeString(c.Raw); ok {
		return s
	}
	return fence(string(c.Raw), "json")
}

func (m *mdWriter) section(title string, it *Item, body string) {
	m.printf("\n### %s · %s\n\n%s\n", title, it.Time, strings.TrimSpace(body))
}

func (m *mdWriter) bash(b *Bash) {
	m.printf("\n**User ran** `%s`\n\n%s", inlineCode(b.Command), folded(b.Output, "text"))
	if b.Exit != "" {
		m.printf("\n(exit %s)\n", b.Exit)
	}
}

func (m *mdWriter) turn(it *Item) {
	tn := it.Turn
	title := "Assistant"
	if tn.Model != "" {
		title += " (" + tn.Model + ")"
	}
	m.printf("\n### %s · %s\n", title, it.Time)
	for _, b := range tn.Blocks {
		switch {
		case b.Kind == ThinkingBlock && strings.TrimSpace(b.Thinking) != "":
			m.printf("\n> *Thinking:* %s\n", strings.ReplaceAll(strings.TrimSpace(b.Thinking), "\n", "\n> "))
		case b.Kind == TextBlock:
			m.printf("\n%s\n", strings.TrimSpace(b.Text))
		case b.Kind == CallBlock:
			m.toolCall(b.Call)
		}
	}
	switch tn.Stop {
	case "aborted":
		m.printf("\n> **⊘ Aborted:** the turn was interrupted.\n")
	case "error":
		m.printf("\n> **✗ Error:** %s\n", tn.Error)
	}
}

func (m *mdWriter) toolCall(c *ToolCall) {
	switch c.Tool {
	case BashTool:
		m.printf("\n**bash** `%s`\n", inlineCode(c.Command))
	case ReadTool, WriteTool, EditTool, LsTool:
		m.printf("\n**%s** `%s`\n", c.Name, inlineCode(c.Path))
		if c.Tool == EditTool {
			m.editDiff(c.Edits)
		}
	case GrepTool, FindTool:
		m.printf("\n**%s** `%s` %s\n", c.Name, inlineCode(c.Pattern), c.Filter)
	default:
		m.printf("\n**%s**\n\n%s", c.Name, fence(c.Args, "json"))
	}
}

func (m *mdWriter) editDiff(edits [][2]string) {
	var lines []string
	for _, p := range edits {
		for _, d := range lineDiff(p[0], p[1]) {
			lines = append(lines, d.Text)
		}
	}
	if len(lines) > 0 {
		m.printf("\n%s", fence(strings.Join(lines, "\n"), "diff"))
	}
}

func (m *mdWriter) toolResult(res *ToolResult) {
	if res.Omitted {
		return
	}
	status := "result"
	if res.IsError {
		status = "✗ error"
	}
	m.printf("\n*%s %s:*\n\n%s", res.ToolName, status, folded(strings.TrimSpace(res.Text), "text"))
}

// folded is a fenced block, inside <details> when it is long.
func folded(text, lang string) string {
	if text == "" {
		return ""
	}
	n := strings.Count(text, "\n") + 1
	if n <= mdOpenLines {
		return fence(text, lang)
	}
	return fmt.Sprintf("<details><summary>%d lines</summary>\n\n%s\n</details>\n", n, fence(text, lang))
}

// fence wraps text in a code fence longer than any backtick run inside it.
func fence(text, lang string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + lang + "\n" + text + "\n" + f + "\n"
}

// inlineCode keeps text on one line and free of backticks, for `…` spans.
// A CR is a line end in CommonMark too: left in, it would end the span's
// line and let the rest start a block (raw HTML, a heading).
func inlineCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s)
}
