package jsonl

import (
	"strings"
)

// EntryPreview is a one-line description of an entry for listings: its role
// or type and the start of its text.
func EntryPreview(e *Entry) string {
	switch e.Type {
	case TypeMessage:
		return messagePreview(e)
	case TypeCustomMessage:
		return "custom:" + e.Obj.String("customType") + " " + oneLine(ExtractText(e.Obj.Get("content")))
	case TypeBranchSummary:
		return "branch summary: " + oneLine(e.Obj.String("summary"))
	case TypeCompaction:
		return "compaction: " + oneLine(e.Obj.String("summary"))
	case TypeModelChange:
		return "model → " + e.Obj.String("provider") + "/" + e.Obj.String("modelId")
	case TypeThinkingLevelChange:
		return "thinking → " + e.Obj.String("thinkingLevel")
	case TypeLabel:
		return "label " + e.Obj.String("targetId") + " = " + e.Obj.String("label")
	case TypeSessionInfo:
		return "name: " + e.Obj.String("name")
	case TypeContextEdit:
		return "context edit of " + e.Obj.String("targetId")
	}
	return e.TypeName()
}

func messagePreview(e *Entry) string {
	m, err := e.Message()
	if err != nil {
		return "message (unreadable)"
	}
	role := m.String("role")
	switch role {
	case RoleToolResult:
		return "tool result " + m.String("toolName") + ": " + oneLine(ExtractText(m.Get("content")))
	case RoleBashExecution:
		return "$ " + oneLine(m.String("command"))
	case RoleAssistant:
		return "assistant: " + assistantPreview(m)
	}
	return role + ": " + oneLine(ExtractText(m.Get("content")))
}

func assistantPreview(m Object) string {
	text := oneLine(ExtractText(m.Get("content")))
	var calls []string
	toolCalls, _ := ToolCalls(m.Get("content"))
	for _, c := range toolCalls {
		calls = append(calls, c.Name)
	}
	if len(calls) > 0 {
		text = strings.TrimSpace(text + " → " + strings.Join(calls, ", "))
	}
	if r := m.String("stopReason"); r == "error" || r == "aborted" {
		text = "(" + r + ") " + text
	}
	return text
}

// oneLine folds white space so text fits on one row, and clips it.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
