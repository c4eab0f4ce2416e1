package exporter

import (
	"bytes"
	"regexp"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pitool/pitool/jsonl"
)

// toolView is one tool call and its result, rendered per tool: read, write,
// edit, bash, grep, find and ls get their own layout, others show arguments.
type toolView struct {
	Name, CallID, ResultID string
	Status                 string // ok, error or pending (no result recorded)
	Path, Detail           string // the file or folder, and a line range, glob or limit
	Command, Pattern       string
	Args                   string // pretty JSON of other tools' arguments
	Content                *output
	Output                 *output
	Diff                   []diffLine
	Images                 []imageView
	Note                   string // a short result text (write)
	Omitted                bool   // --no-tool-output
}

// diffLine is one line of an edit's diff.
type diffLine struct {
	Class, Text string
}

// toolResult is what a toolResult message contributes to its call.
type toolResult struct {
	ID      string
	Msg     jsonl.Message
	Text    string
	Blocks  []jsonl.Block
	IsError bool
}

func newToolResult(id string, msg jsonl.Message) *toolResult {
	text, blocks := contentOf(msg.Content)
	return &toolResult{ID: id, Msg: msg, Text: text, Blocks: blocks, IsError: msg.IsError}
}

// renderTool builds the view of call (a toolCall block) with its result (nil
// when none was recorded).
func (r *renderer) renderTool(call jsonl.Block, res *toolResult) *toolView {
	args, _ := jsonl.ParseObject(call.Arguments)
	v := &toolView{Name: call.Name, CallID: call.ID, Status: "pending"}
	if res != nil {
		v.ResultID, v.Status = res.ID, "ok"
		if res.IsError {
			v.Status = "error"
		}
	}
	v.Path = firstString(args, "path", "file_path")
	switch call.Name {
	case "bash":
		v.Command = args.String("command")
		r.withOutput(v, res, 5, "")
	case "read":
		v.Detail = readRange(args)
		r.withOutput(v, res, 10, v.Path)
	case "write":
		r.writeView(v, args, res)
	case "edit":
		r.editView(v, args, res)
	case "grep", "find":
		v.Pattern, v.Detail = args.String("pattern"), grepDetail(args)
		r.withOutput(v, res, 10, "")
	case "ls":
		r.withOutput(v, res, 20, "")
	default:
		v.Args = prettyJSON(call.Arguments)
		r.withOutput(v, res, 10, "")
	}
	return v
}

func firstString(o jsonl.Object, keys ...string) string {
	for _, k := range keys {
		if s := o.String(k); s != "" {
			return s
		}
	}
	return ""
}

// withOutput attaches the result's text (highlighted as the file at path,
// when given) and images.
func (r *renderer) withOutput(v *toolView, res *toolResult, maxLines int, path string) {
	if res == nil {
		return
	}
	if r.opts.NoToolOutput {
		v.Omitted = true
		return
	}
	v.Images = images(res.Blocks)
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

// readRange is Pi's formatReadLineRange: ":start-end" from offset and limit.
func readRange(args jsonl.Object) string {
	offset, limit := jsonNumber(args.Get("offset")), jsonNumber(args.Get("limit"))
	if offset < 0 && limit < 0 {
		return ""
	}
	start := max(offset, 1)
	if limit < 0 {
		return ":" + itoa(start)
	}
	return ":" + itoa(start) + "-" + itoa(start+limit-1)
}

// jsonNumber reads a whole number (or a numeric string), -1 when absent.
func jsonNumber(raw jsonl.RawMessage) int {
	var n json.Number
	if s, ok := jsonl.DecodeString(raw); ok {
		n = json.Number(strings.TrimSpace(s))
	} else if raw != nil && json.Unmarshal(raw, &n) != nil {
		return -1
	}
	i, err := n.Int64()
	if err != nil {
		return -1
	}
	return int(i)
}

func grepDetail(args jsonl.Object) string {
	var parts []string
	if p := args.String("path"); p != "" {
		parts = append(parts, "in "+p)
	}
	if g := args.String("glob"); g != "" {
		parts = append(parts, "("+g+")")
	}
	for _, flag := range []string{"ignoreCase", "literal"} {
		if string(args.Get(flag)) == "true" {
			parts = append(parts, flag)
		}
	}
	return strings.Join(parts, " ")
}

func (r *renderer) writeView(v *toolView, args jsonl.Object, res *toolResult) {
	content := args.String("content")
	if n := strings.Count(content, "\n") + 1; n > 10 {
		v.Detail = "(" + itoa(n) + " lines)"
	}
	if content != "" && !r.opts.NoToolOutput {
		v.Content = r.code.newOutput(content, 10, v.Path)
	}
	if res != nil && !r.opts.NoToolOutput {
		v.Note = strings.TrimSpace(res.Text)
	}
}

func (r *renderer) editView(v *toolView, args jsonl.Object, res *toolResult) {
	if res != nil && res.IsError {
		r.withOutput(v, res, 10, "")
		return
	}
	if res != nil && res.Msg.Details != nil {
		details, _ := jsonl.ParseObject(res.Msg.Details)
		if d := details.String("diff"); d != "" {
			v.Diff = recordedDiff(d)
			return
		}
	}
	for _, e := range editPairs(args) {
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

// editPairs returns the (old, new) texts of an edit call, in any of the
// argument shapes Pi's edit tool has used.
func editPairs(args jsonl.Object) [][2]string {
	if old := firstString(args, "oldText", "old_string"); old != "" {
		return [][2]string{{old, firstString(args, "newText", "new_string")}}
	}
	elems, _ := jsonl.ParseArray(args.Get("edits"))
	var out [][2]string
	for _, raw := range elems {
		e, err := jsonl.ParseObject(raw)
		if err == nil {
			out = append(out, [2]string{firstString(e, "oldText", "old_string"), firstString(e, "newText", "new_string")})
		}
	}
	return out
}

func prettyJSON(raw jsonl.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

var grepPrefix = regexp.MustCompile(`^([^\s:]+[:-]\d+[:-])`)

// writeGrep writes grep output with its file:line prefixes marked.
func writeGrep(b *bytes.Buffer, text string) {
	b.WriteString(`<pre class="chroma"><code>`)
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if m := grepPrefix.FindString(l); m != "" {
			b.WriteString(`<span class="gp">`)
			escapeCode(b, m)
			b.WriteString(`</span>`)
			l = l[len(m):]
		}
		escapeCode(b, l)
	}
	b.WriteString(`</code></pre>`)
}
