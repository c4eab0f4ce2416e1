package search

import (
	"github.com/pitool/pitool/jsonl"
)

// The kinds of text an entry holds, as Match.Kind names them.
const (
	KindText       = "text"       // a message's text
	KindThinking   = "thinking"   // an assistant's thinking
	KindToolCall   = "toolCall"   // a string in a tool call's arguments
	KindToolResult = "toolResult" // a tool result's text
	KindCommand    = "command"    // a bash execution's command
	KindOutput     = "output"     // a bash execution's output
	KindSummary    = "summary"    // a compaction or branch summary
)

// text is one string of an entry that people or the model saw, still raw:
// the JSON string literal, quotes included. tool is the raw literal of the
// tool's name, decoded (toolName) only when a filter or a match reads it:
// most texts are neither.
type text struct {
	role, kind string
	tool, raw  []byte
}

// toolName is the name of the tool of a tool call's or result's text, ""
// for any other.
func (t *text) toolName() string {
	name, _ := jsonl.DecodeString(t.tool)
	return name
}

// entryTexts calls emit with each text of the entry whose line is line and
// whose Fields are f, as r read them, in the order of the line, until emit
// returns false.
func entryTexts(r *jsonl.Reader, line []byte, f *jsonl.Fields, emit func(text) bool) {
	switch jsonl.EntryTypeOf(f.Type) {
	case jsonl.TypeMessage:
		messageTexts(r, f, emit)
	case jsonl.TypeCustomMessage:
		contentTexts(r, jsonl.RoleCustom, KindText, nil, f.Content, emit)
	case jsonl.TypeCompaction:
		summaryText(r, jsonl.RoleCompactionSummary, line, emit)
	case jsonl.TypeBranchSummary:
		summaryText(r, jsonl.RoleBranchSummary, line, emit)
	}
}

// messageTexts is entryTexts for a message entry.
func messageTexts(r *jsonl.Reader, f *jsonl.Fields, emit func(text) bool) {
	m := &f.Msg
	switch role := jsonl.RoleOf(m.Role); role {
	case jsonl.UserRole:
		contentTexts(r, jsonl.RoleUser, KindText, nil, m.Content, emit)
	case jsonl.CustomRole, jsonl.HookMessageRole:
		contentTexts(r, jsonl.RoleCustom, KindText, nil, m.Content, emit)
	case jsonl.AssistantRole:
		assistantTexts(r, m.Content, emit)
	case jsonl.ToolResultRole:
		contentTexts(r, jsonl.RoleToolResult, KindToolResult, m.ToolName, m.Content, emit)
	case jsonl.BashExecutionRole:
		objectTexts(r, f.Message, jsonl.RoleBashExecution, emit, [2]string{"command", KindCommand}, [2]string{"output", KindOutput})
	case jsonl.BranchSummaryRole, jsonl.CompactionSummaryRole:
		objectTexts(r, f.Message, role.String(), emit, [2]string{"summary", KindSummary})
	}
}

// contentTexts emits a content that is a string, or the text blocks of a
// content array.
func contentTexts(r *jsonl.Reader, role, kind string, tool, content []byte, emit func(text) bool) {
	if len(content) > 0 && content[0] == '"' {
		emit(text{role, kind, tool, content})
		return
	}
	eachBlock(r, content, func(b block) bool {
		return jsonl.BlockType(b.typ) != jsonl.BlockText || emit(text{role, kind, tool, b.text})
	})
}

// assistantTexts emits an assistant's text and thinking blocks and every
// string value in its tool calls' arguments.
func assistantTexts(r *jsonl.Reader, content []byte, emit func(text) bool) {
	if len(content) == 0 || content[0] != '[' {
		contentTexts(r, jsonl.RoleAssistant, KindText, nil, content, emit)
		return
	}
	eachBlock(r, content, func(b block) bool {
		switch jsonl.BlockType(b.typ) {
		case jsonl.BlockText:
			return emit(text{jsonl.RoleAssistant, KindText, nil, b.text})
		case jsonl.BlockThinking:
			return emit(text{jsonl.RoleAssistant, KindThinking, nil, b.thinking})
		case jsonl.BlockToolCall:
			return argumentTexts(r, b.name, b.arguments, emit)
		}
		return true
	})
}

// block is what the search reads of a content block: the raw values of its
// keys, each the last one written, as JSON.parse keeps it.
type block struct {
	typ, text, thinking, name, arguments []byte
}

// eachBlock calls fn with each content block (object) of the content array
// content, of the line r read, each read in one walk, until fn returns
// false. The block goes to fn by value: a pointer to it would escape to
// fn, and the block would be allocated for every content array searched.
func eachBlock(r *jsonl.Reader, content []byte, fn func(b block) bool) {
	var b block
	r.EachObject(content, b.keep, func() bool {
		more := fn(b)
		b = block{}
		return more
	})
}

// keep keeps the value of a key of a block.
func (b *block) keep(key, val []byte) {
	switch string(key) {
	case "type":
		b.typ = val
	case "text":
		b.text = val
	case "thinking":
		b.thinking = val
	case "name":
		b.name = val
	case "arguments":
		b.arguments = val
	}
}

// argumentTexts emits every string value (not key) of a tool call's
// arguments, at any depth; it reports false when emit did.
func argumentTexts(r *jsonl.Reader, tool, args []byte, emit func(text) bool) bool {
	more := true
	r.EachString(args, func(s []byte) bool {
		more = emit(text{jsonl.RoleAssistant, KindToolCall, tool, s})
		return more
	})
	return more
}

// objectTexts emits the string values of the given keys (one or two) of a
// JSON object of the line r read, each pair a key and the kind of its
// text; a repeated key's last value counts, as in JSON.parse.
func objectTexts(r *jsonl.Reader, raw []byte, role string, emit func(text) bool, keys ...[2]string) {
	var vals [2][]byte
	r.EachMember(raw, func(key, val []byte) bool {
		for n, k := range keys {
			if string(key) == k[0] {
				vals[n] = val
			}
		}
		return true
	})
	for n, k := range keys {
		if v := vals[n]; len(v) > 0 && v[0] == '"' && !emit(text{role, k[1], nil, v}) {
			return
		}
	}
}

// summaryText emits the "summary" of a compaction or branch summary entry.
func summaryText(r *jsonl.Reader, role string, line []byte, emit func(text) bool) {
	objectTexts(r, line, role, emit, [2]string{"summary", KindSummary})
}
