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
	r, err := newRenderer(ix, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, writeBufferSize)
	m := &mdWriter{w: bw, r: r}
	m.head()
	for k, i := range r.seq {
		if k%cancelEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		e, err := r.decode(i)
		if err != nil {
			return err
		}
		if err := m.entry(e); err != nil {
			return err
		}
	}
	return bw.Flush()
}

type mdWriter struct {
	w *bufio.Writer
	r *renderer
}

func (m *mdWriter) printf(format string, args ...any) { fmt.Fprintf(m.w, format, args...) }

func (m *mdWriter) head() {
	h := m.r.headView()
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

func (m *mdWriter) entry(e *jsonl.Entry) error {
	switch e.Type {
	case jsonl.TypeMessage:
		msg, err := messageOf(e)
		if err != nil {
			return err
		}
		m.message(e, msg)
	case jsonl.TypeCustomMessage:
		if string(e.Obj.Get("display")) != "false" {
			text, ok := jsonl.DecodeString(e.Obj.Get("content"))
			if !ok {
				text = fence(string(e.Obj.Get("content")), "json")
			}
			m.section("["+e.Obj.String("customType")+"]", e, text)
		}
	case jsonl.TypeCompaction:
		m.section("Compaction summary", e, e.Obj.String("summary"))
	case jsonl.TypeBranchSummary:
		m.section("Branch summary", e, e.Obj.String("summary"))
	case jsonl.TypeModelChange, jsonl.TypeThinkingLevelChange:
		m.printf("\n*%s*\n", settingText(e))
	}
	return nil
}

func (m *mdWriter) section(title string, e *jsonl.Entry, body string) {
	m.printf("\n### %s · %s\n\n%s\n", title, shortTime(e.Timestamp()), strings.TrimSpace(body))
}

func (m *mdWriter) message(e *jsonl.Entry, msg jsonl.Message) {
	text, blocks := contentOf(msg.Content)
	switch msg.Role {
	case jsonl.RoleUser:
		m.section("User", e, text)
	case jsonl.RoleAssistant:
		m.assistant(e, msg, blocks)
	case jsonl.RoleToolResult:
		m.toolResult(msg, text)
	case jsonl.RoleBashExecution:
		m.printf("\n**User ran** `%s`\n\n%s", inlineCode(msg.Command), m.folded(msg.Output, "text"))
		if msg.ExitCode != nil && *msg.ExitCode != 0 {
			m.printf("\n(exit %d)\n", *msg.ExitCode)
		}
	case jsonl.RoleCustom:
		if msg.Display == nil || *msg.Display {
			m.section("["+msg.CustomType+"]", e, text)
		}
	}
}

func (m *mdWriter) assistant(e *jsonl.Entry, msg jsonl.Message, blocks []jsonl.Block) {
	title := "Assistant"
	if msg.Model != "" {
		title += " (" + msg.Model + ")"
	}
	m.printf("\n### %s · %s\n", title, shortTime(e.Timestamp()))
	for _, b := range blocks {
		switch {
		case b.Type == jsonl.BlockThinking && !m.r.opts.NoThinking && strings.TrimSpace(b.Thinking) != "":
			m.printf("\n> *Thinking:* %s\n", strings.ReplaceAll(strings.TrimSpace(b.Thinking), "\n", "\n> "))
		case b.Type == jsonl.BlockText && strings.TrimSpace(b.Text) != "":
			m.printf("\n%s\n", strings.TrimSpace(b.Text))
		case b.Type == jsonl.BlockToolCall:
			m.toolCall(b)
		}
	}
	switch msg.StopReason {
	case "aborted":
		m.printf("\n> **⊘ Aborted:** the turn was interrupted.\n")
	case "error":
		m.printf("\n> **✗ Error:** %s\n", msg.ErrorMessage)
	}
}

func (m *mdWriter) toolCall(b jsonl.Block) {
	args, _ := jsonl.ParseObject(b.Arguments)
	switch b.Name {
	case "bash":
		m.printf("\n**bash** `%s`\n", inlineCode(args.String("command")))
	case "read", "write", "edit", "ls":
		m.printf("\n**%s** `%s`\n", b.Name, inlineCode(firstString(args, "path", "file_path")))
		if b.Name == "edit" {
			m.editDiff(args)
		}
	case "grep", "find":
		m.printf("\n**%s** `%s` %s\n", b.Name, inlineCode(args.String("pattern")), grepDetail(args))
	default:
		m.printf("\n**%s**\n\n%s", b.Name, fence(prettyJSON(b.Arguments), "json"))
	}
}

func (m *mdWriter) editDiff(args jsonl.Object) {
	var lines []string
	for _, p := range editPairs(args) {
		for _, d := range lineDiff(p[0], p[1]) {
			lines = append(lines, d.Text)
		}
	}
	if len(lines) > 0 {
		m.printf("\n%s", fence(strings.Join(lines, "\n"), "diff"))
	}
}

func (m *mdWriter) toolResult(msg jsonl.Message, text string) {
	if m.r.opts.NoToolOutput {
		return
	}
	status := "result"
	if msg.IsError {
		status = "✗ error"
	}
	m.printf("\n*%s %s:*\n\n%s", msg.ToolName, status, m.folded(strings.TrimSpace(text), "text"))
}

// folded is a fenced block, inside <details> when it is long.
func (m *mdWriter) folded(text, lang string) string {
	if text == "" || m.r.opts.NoToolOutput {
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
func inlineCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ").Replace(s)
}
