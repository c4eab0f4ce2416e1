package exporter

import (
	"bytes"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pitool/pitool/jsonl"
)

// ToolKind is the layout a tool call gets: Pi's own tools each have one,
// other tools show their arguments.
type ToolKind int

// The kinds of tool call.
const (
	OtherTool ToolKind = iota // arguments shown as JSON
	BashTool
	ReadTool
	WriteTool
	EditTool
	GrepTool
	FindTool
	LsTool
)

// toolKinds names Pi's own tools.
var toolKinds = map[string]ToolKind{"bash": BashTool, "read": ReadTool, "write": WriteTool, "edit": EditTool,
	"grep": GrepTool, "find": FindTool, "ls": LsTool}

// ToolCall is one tool call, with its result.
type ToolCall struct {
	Name, ID string
	Tool     ToolKind
	Path     string      // the file or folder
	Command  string      // bash
	Pattern  string      // grep, find
	Filter   string      // grep, find: the folder, glob and flags ("in src (*.go) ignoreCase")
	Range    string      // read: the lines asked for (":10-14")
	Content  string      // write: the file's content ("" when tool output is left out)
	Lines    int         // write: the content's lines
	Edits    [][2]string // edit: the (old, new) texts
	Args     string      // other tools: the arguments as indented JSON
	Result   *ToolResult // nil when none was recorded
}

// ToolResult is what a toolResult message tells of its call.
type ToolResult struct {
	EntryID  string
	ToolName string
	Text     string // its text blocks joined ("" when left out)
	Images   []Image
	IsError  bool
	Omitted  bool // tool output is left out of the export
	details  jsonl.RawMessage
}

// toolCalls reads the toolCall blocks of a turn, in order.
func (t *Transcript) toolCalls(blocks []jsonl.Block) []*ToolCall {
	var calls []*ToolCall
	for _, b := range blocks {
		if isToolCall(b) {
			calls = append(calls, t.newToolCall(b))
		}
	}
	return calls
}

// newToolCall reads a toolCall block.
func (t *Transcript) newToolCall(b jsonl.Block) *ToolCall {
	args, _ := jsonl.ParseObject(b.Arguments)
	c := &ToolCall{Name: b.Name, ID: b.ID, Tool: toolKinds[b.Name], Path: firstString(args, "path", "file_path")}
	switch c.Tool {
	case BashTool:
		c.Command = args.String("command")
	case ReadTool:
		c.Range = readRange(args)
	case WriteTool:
		content := args.String("content")
		c.Lines = strings.Count(content, "\n") + 1
		if !t.opts.NoToolOutput {
			c.Content = content
		}
	case EditTool:
		c.Edits = editPairs(args)
	case GrepTool, FindTool:
		c.Pattern, c.Filter = args.String("pattern"), grepDetail(args)
	case LsTool:
	default:
		c.Args = prettyJSON(b.Arguments)
	}
	return c
}

// newToolResult reads a toolResult message.
func (t *Transcript) newToolResult(d *decoded) *ToolResult {
	msg := d.msg
	r := &ToolResult{EntryID: d.e.ID, ToolName: msg.ToolName, IsError: msg.IsError, Omitted: t.opts.NoToolOutput, details: msg.Details}
	if !r.Omitted {
		r.Text, r.Images = d.text, images(d.blocks)
	}
	return r
}

// RecordedDiff is the diff Pi's edit tool recorded in the result's details,
// "" when none.
func (r *ToolResult) RecordedDiff() string {
	if r.details == nil {
		return ""
	}
	details, _ := jsonl.ParseObject(r.details)
	return details.String("diff")
}

func firstString(o jsonl.Object, keys ...string) string {
	for _, k := range keys {
		if s := o.String(k); s != "" {
			return s
		}
	}
	return ""
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
	if n, ok := jsonl.WholeNumber(raw); ok {
		return int(n)
	}
	return -1
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
