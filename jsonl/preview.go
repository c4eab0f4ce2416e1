package jsonl

import (
	"strings"
)

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
