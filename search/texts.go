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
// the JSON string literal, quotes included.
type text struct {
	role, kind, tool string
	raw              []byte
}

// entryTexts calls emit with each text of the entry whose line is line and
// whose Fields are f, in the order of the line, until emit returns false.
func entryTexts(line []byte, f *jsonl.Fields, emit func(text) bool) {
	switch jsonl.EntryTypeOf(f.Type) {
	case jsonl.TypeMessage:
		messageTexts(f, emit)
	case jsonl.TypeCustomMessage:
		contentTexts(jsonl.RoleCustom, KindText, "", f.Content, emit)
	case jsonl.TypeCompaction:
		summaryText(jsonl.RoleCompactionSummary, line, emit)
	case jsonl.TypeBranchSummary:
		summaryText(jsonl.RoleBranchSummary, line, emit)
	}
}

// messageTexts is entryTexts for a message entry.
func messageTexts(f *jsonl.Fields, emit func(text) bool) {
	m := &f.Msg
	switch role := jsonl.RoleOf(m.Role); role {
	case jsonl.UserRole:
		contentTexts(jsonl.RoleUser, KindText, "", m.Content, emit)
	case jsonl.CustomRole, jsonl.HookMessageRole:
		contentTexts(jsonl.RoleCustom, KindText, "", m.Content, emit)
	case jsonl.AssistantRole:
		assistantTexts(m.Content, emit)
	case jsonl.ToolResultRole:
		tool, _ := jsonl.DecodeString(m.ToolName)
		contentTexts(jsonl.RoleToolResult, KindToolResult, tool, m.Content, emit)
	case jsonl.BashExecutionRole:
		objectTexts(f.Message, jsonl.RoleBashExecution, emit, [2]string{"command", KindCommand}, [2]string{"output", KindOutput})
	case jsonl.BranchSummaryRole, jsonl.CompactionSummaryRole:
		objectTexts(f.Message, role.String(), emit, [2]string{"summary", KindSummary})
	}
}

// contentTexts emits a content that is a string, or the text blocks of a
// content array.
func contentTexts(role, kind, tool string, content []byte, emit func(text) bool) {
	if len(content) > 0 && content[0] == '"' {
		emit(text{role, kind, tool, content})
		return
	}
	blocks, err := jsonl.ParseArray(content)
	if err != nil {
		return
	}
	for _, b := range blocks {
		o, err := jsonl.ParseObject(b)
		if err != nil || jsonl.BlockType(o.Get("type")) != jsonl.BlockText {
			continue
		}
		if !emit(text{role, kind, tool, o.Get("text")}) {
			return
		}
	}
}

// assistantTexts emits an assistant's text and thinking blocks and every
// string value in its tool calls' arguments.
func assistantTexts(content []byte, emit func(text) bool) {
	blocks, err := jsonl.ParseArray(content)
	if err != nil {
		contentTexts(jsonl.RoleAssistant, KindText, "", content, emit)
		return
	}
	for _, b := range blocks {
		o, err := jsonl.ParseObject(b)
		if err != nil {
			continue
		}
		ok := true
		switch jsonl.BlockType(o.Get("type")) {
		case jsonl.BlockText:
			ok = emit(text{jsonl.RoleAssistant, KindText, "", o.Get("text")})
		case jsonl.BlockThinking:
			ok = emit(text{jsonl.RoleAssistant, KindThinking, "", o.Get("thinking")})
		case jsonl.BlockToolCall:
			name, _ := jsonl.DecodeString(o.Get("name"))
			ok = argumentTexts(name, o.Get("arguments"), emit)
		}
		if !ok {
			return
		}
	}
}

// argumentTexts emits every string value (not key) of a tool call's
// arguments, at any depth.
func argumentTexts(tool string, args []byte, emit func(text) bool) bool {
	if len(args) == 0 {
		return true
	}
	var w jsonl.Walker
	w.Reset(args, 0)
	for {
		tok, err := w.Next()
		if err != nil || tok == jsonl.TokenEnd {
			return true
		}
		if tok == jsonl.TokenString && !emit(text{jsonl.RoleAssistant, KindToolCall, tool, args[w.Start:w.End]}) {
			return false
		}
	}
}

// objectTexts emits the string values of the given keys of a JSON object,
// each pair a key and the kind of its text.
func objectTexts(raw []byte, role string, emit func(text) bool, keys ...[2]string) {
	o, err := jsonl.ParseObject(raw)
	if err != nil {
		return
	}
	for _, k := range keys {
		if v := o.Get(k[0]); len(v) > 0 && v[0] == '"' && !emit(text{role, k[1], "", v}) {
			return
		}
	}
}

// summaryText emits the "summary" of a compaction or branch summary entry.
func summaryText(role string, line []byte, emit func(text) bool) {
	objectTexts(line, role, emit, [2]string{"summary", KindSummary})
}
