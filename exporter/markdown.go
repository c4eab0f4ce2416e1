package exporter

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pitool/pitool/internal/termtext"
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
	m.printf("# %s\n\n", mdText(h.Title))
	m.printf("- Session: `%s`\n", inlineCode(h.SessionID))
	if h.Date != "" {
		m.printf("- Date: %s\n", mdText(h.Date))
	}
	if h.Cwd != "" {
		m.printf("- Directory: `%s`\n", inlineCode(h.Cwd))
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
		m.section("\\["+mdText(it.Custom.Type)+"\\]", it, customText(it.Custom))
	case it.Summary != nil && it.Summary.Compaction:
		m.section("Compaction summary", it, it.Summary.Text)
	case it.Summary != nil:
		m.section("Branch summary", it, it.Summary.Text)
	case it.Setting != "":
		m.printf("\n*%s*\n", mdText(it.Setting))
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
	m.printf("\n### %s · %s\n\n%s\n", title, mdText(it.Time), strings.TrimSpace(body))
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
		title += " (" + mdText(tn.Model) + ")"
	}
	m.printf("\n### %s · %s\n", title, mdText(it.Time))
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
		m.printf("\n> **✗ Error:** %s\n", mdText(tn.Error))
	}
}

func (m *mdWriter) toolCall(c *ToolCall) {
	switch c.Tool {
	case BashTool:
		m.printf("\n**bash** `%s`\n", inlineCode(c.Command))
	case ReadTool, WriteTool, EditTool, LsTool:
		m.printf("\n**%s** `%s`\n", mdText(c.Name), inlineCode(termtext.Visible(c.Path)))
		if c.Tool == EditTool {
			m.editDiff(c.Edits)
		}
	case GrepTool, FindTool:
		m.printf("\n**%s** `%s` %s\n", mdText(c.Name), inlineCode(c.Pattern), mdText(c.Filter))
	default:
		m.printf("\n**%s**\n\n%s", mdText(c.Name), fence(c.Args, "json"))
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
	m.printf("\n*%s %s:*\n\n%s", mdText(res.ToolName), status, folded(strings.TrimSpace(res.Text), "text"))
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

// inlineCode keeps text on one line and free of backticks, for `…` spans:
// a line ending (LF or CR) inside could end the paragraph, and what follows
// it would be read as Markdown and HTML.
func inlineCode(s string) string { return inlineCodeReplacer.Replace(s) }

var inlineCodeReplacer = strings.NewReplacer("`", "'", "\n", " ", "\r", " ")

// mdText writes a session value that is a name, not Markdown (the title, a
// model, a tool name, a custom type, an error, a setting), as literal text
// on one line: line endings become spaces, other controls (a bidi override
// among them) are shown as termtext.Visible shows them, and every character
// that can open an HTML tag, an entity, a link, an image, emphasis, code or
// strikethrough is backslash-escaped, so no renderer makes an element of it.
// An underscore inside a word (mcp__read_file) cannot start emphasis and is
// kept, for readability.
func mdText(s string) string {
	s = termtext.Visible(lineEndsToSpaces.Replace(s))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_' && intraword(s, i):
			b.WriteByte(c)
		case strings.IndexByte(mdSpecial, c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var lineEndsToSpaces = strings.NewReplacer("\n", " ", "\r", " ")

// mdSpecial are the bytes mdText escapes.
const mdSpecial = "\\`*_[]<>&!~|#"

// intraword reports whether the run of underscores holding s[i] has a letter
// or digit on both sides, where CommonMark never reads it as emphasis.
func intraword(s string, i int) bool {
	start, end := i, i
	for start > 0 && s[start-1] == '_' {
		start--
	}
	for end < len(s) && s[end] == '_' {
		end++
	}
	return start > 0 && end < len(s) && isAlnum(s[start-1]) && isAlnum(s[end])
}

// isAlnum reports an ASCII letter or digit.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
