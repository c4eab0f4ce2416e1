package exporter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// messageOf decodes the message of a message entry: with
// jsonl.DecodeMessageBlocks when it takes it, else with Unmarshal. When
// blocksOK, blocks are its content's, decoded on the way.
func messageOf(e *jsonl.Entry) (m jsonl.Message, blocks []jsonl.Block, blocksOK bool, err error) {
	raw := e.Obj.Get("message")
	m, blocks, ok, blocksOK := jsonl.DecodeMessageBlocks(raw)
	if ok {
		return m, blocks, blocksOK, nil
	}
	m = jsonl.Message{}
	if err := jsonl.Unmarshal(raw, &m); err != nil {
		return m, nil, false, &jsonl.PosError{Line: e.Line, Offset: e.Offset, Err: fmt.Errorf("message: %w", err)}
	}
	return m, nil, false, nil
}

// view lays out one item for the page. Highlighting is decided here, in page
// order; the markup is written later, by the page workers.
func (r *renderer) view(it *Item) *entryView {
	v := &entryView{ID: it.ID, Parent: it.Parent, Time: it.Time, Label: it.Label, BranchFrom: it.BranchFrom,
		OffPath: it.OffPath, Kind: string(it.Kind), Summary: it.Preview(), Setting: it.Setting}
	switch {
	case it.User != nil:
		v.User = &userView{Text: r.markdown(it.User.Text), Images: it.User.Images}
	case it.Turn != nil:
		v.Assistant = r.assistantView(it.Turn)
	case it.Tool != nil:
		v.Tool = r.renderTool(it.Tool)
		v.Tool.ResultID = ""
	case it.Bash != nil:
		v.Bash = r.bashView(it.Bash)
	case it.System != nil:
		v.System = r.systemView(it.System)
	case it.Summary != nil:
		s := it.Summary
		v.Sum = &summaryView{Title: s.Title, Body: r.markdown(s.Text), Read: s.Read, Modified: s.Modified}
	case it.Custom != nil:
		c := it.Custom
		v.Custom = &customView{Type: c.Type, Hidden: c.Hidden, Body: r.markdown(c.Text + c.JSON), Images: c.Images}
	}
	return v
}

func (r *renderer) assistantView(tn *Turn) *assistantView {
	a := &assistantView{Model: tn.Model, Stop: tn.Stop, Error: tn.Error}
	if tn.Provider != "" && tn.Model != "" {
		a.Model = tn.Provider + "/" + tn.Model
	}
	if a.Stop != "" && a.Error == "" {
		a.Error = "unknown error"
	}
	for _, b := range tn.Blocks {
		switch b.Kind {
		case TextBlock:
			a.Blocks = append(a.Blocks, blockView{Text: r.markdown(b.Text)})
		case ThinkingBlock:
			a.Blocks = append(a.Blocks, blockView{Thinking: b.Thinking, Redacted: b.Redacted})
		}
	}
	for _, b := range tn.Blocks {
		if b.Kind == CallBlock {
			a.Tools = append(a.Tools, r.renderTool(b.Call))
		}
	}
	return a
}

func (r *renderer) bashView(b *Bash) *bashView {
	v := &bashView{Command: b.Command, Exit: b.Exit, Cancelled: b.Cancelled, Excluded: b.Excluded, Truncated: b.Truncated}
	if b.Output != "" {
		v.Output = r.code.newOutput(b.Output, 10, "")
	}
	return v
}

func (r *renderer) systemView(s *System) *systemView {
	v := &systemView{Title: s.Title, Tools: s.Tools, Removed: s.Removed, Update: s.Update}
	if s.Text != "" {
		v.Text = r.code.newOutput(s.Text, 10, "")
	}
	return v
}

// renderTool lays out a tool call with its result: read, write, edit, bash,
// grep, find and ls get their own layout, others show their arguments.
func (r *renderer) renderTool(c *ToolCall) *toolView {
	v := &toolView{Name: c.Name, CallID: c.ID, Status: "pending", Path: c.Path}
	res := c.Result
	if res != nil {
		v.ResultID, v.Status = res.EntryID, "ok"
		if res.IsError {
			v.Status = "error"
		}
	}
	switch c.Tool {
	case BashTool:
		v.Command = c.Command
		r.withOutput(v, res, 5, "")
	case ReadTool:
		v.Detail = c.Range
		r.withOutput(v, res, 10, v.Path)
	case WriteTool:
		r.writeView(v, c)
	case EditTool:
		r.editView(v, c)
	case GrepTool, FindTool:
		v.Pattern, v.Detail = c.Pattern, c.Filter
		r.withOutput(v, res, 10, "")
	case LsTool:
		r.withOutput(v, res, 20, "")
	default:
		v.Args = c.Args
		r.withOutput(v, res, 10, "")
	}
	return v
}

// withOutput attaches the result's text (highlighted as the file at path,
// when given) and images.
func (r *renderer) withOutput(v *toolView, res *ToolResult, maxLines int, path string) {
	if res == nil {
		return
	}
	if res.Omitted {
		v.Omitted = true
		return
	}
	v.Images = res.Images
	text := res.Text
	if v.Name != "read" {
		text = strings.TrimSpace(text)
	}
	switch {
	case text == "":
	case v.Name == "grep" && !res.IsError:
		v.Output = formatOutput(text, maxLines, writeGrep)
	default:
		v.Output = r.code.newOutput(text, maxLines, path)
	}
	if v.Output != nil {
		v.Output.Error = res.IsError
	}
}

func (r *renderer) writeView(v *toolView, c *ToolCall) {
	if c.Lines > 10 {
		v.Detail = "(" + itoa(c.Lines) + " lines)"
	}
	if c.Content != "" {
		v.Content = r.code.newOutput(c.Content, 10, v.Path)
	}
	if c.Result != nil {
		v.Note = strings.TrimSpace(c.Result.Text)
	}
}

func (r *renderer) editView(v *toolView, c *ToolCall) {
	if res := c.Result; res != nil && res.IsError {
		r.withOutput(v, res, 10, "")
		return
	}
	if res := c.Result; res != nil {
		if d := res.RecordedDiff(); d != "" {
			v.Diff = recordedDiff(d)
			return
		}
	}
	for _, e := range c.Edits {
		v.Diff = append(v.Diff, lineDiff(e[0], e[1])...)
	}
}

// recordedDiff classes the lines of the diff Pi's edit tool records.
func recordedDiff(d string) []diffLine {
	lines := strings.Split(d, "\n")
	out := make([]diffLine, len(lines))
	for i, l := range lines {
		cls := "ctx"
		switch {
		case strings.HasPrefix(l, "+"):
			cls = "add"
		case strings.HasPrefix(l, "-"):
			cls = "del"
		}
		out[i] = diffLine{cls, strings.ReplaceAll(l, "\t", "   ")}
	}
	return out
}

// grepPrefix returns the file:line: (or file-line-, a context line's) prefix
// of a grep output line, or "": what the regular expression
// ^([^\s:]+[:-]\d+[:-]) finds, without running one per line (it was a tenth
// of the time of a tool output's HTML). As the expression backtracks, the
// name is the longest that a separator, digits and a separator follow.
// FuzzGrepPrefix holds it to the expression.
func grepPrefix(l string) string {
	name := strings.IndexAny(l, " \t\n\f\r:") // where the name must end
	if name < 0 {
		name = len(l) - 1
	}
	for k := name; k >= 1; k-- {
		if l[k] != ':' && l[k] != '-' {
			continue
		}
		j := k + 1
		for j < len(l) && '0' <= l[j] && l[j] <= '9' {
			j++
		}
		if j > k+1 && j < len(l) && (l[j] == ':' || l[j] == '-') {
			return l[:j+1]
		}
	}
	return ""
}

// writeGrep writes grep output with its file:line prefixes marked.
func writeGrep(b *bytes.Buffer, text string) {
	b.WriteString(`<pre class="chroma"><code>`)
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if m := grepPrefix(l); m != "" {
			b.WriteString(`<span class="gp">`)
			escapeCode(b, m)
			b.WriteString(`</span>`)
			l = l[len(m):]
		}
		escapeCode(b, l)
	}
	b.WriteString(`</code></pre>`)
}
