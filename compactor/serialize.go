package compactor

import (
	"strconv"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// ToolResultMaxChars is how much of a tool result Pi keeps in a summarizer's
// input, in UTF-16 code units.
const ToolResultMaxChars = 2000

// SerializeConversation is Pi's serializeConversation of LLM messages (the
// output of jsonl.ConvertToLlm): the text a summarizer reads, with thinking
// left out and tool results cut to ToolResultMaxChars.
func SerializeConversation(msgs []jsonl.Object) string {
	var parts []string
	for _, m := range msgs {
		parts = append(parts, serializeMessage(m)...)
	}
	return strings.Join(parts, "\n\n")
}

func serializeMessage(m jsonl.Object) []string {
	content := m.Get("content")
	switch m.String("role") {
	case jsonl.RoleUser:
		if text := contentText(content, ""); text != "" {
			return []string{"[User]: " + text}
		}
	case jsonl.RoleAssistant:
		return serializeAssistant(content)
	case jsonl.RoleToolResult:
		if text := contentText(content, ""); text != "" {
			return []string{"[Tool result]: " + truncateForSummary(text, ToolResultMaxChars)}
		}
	}
	return nil
}

func serializeAssistant(content jsonl.RawMessage) []string {
	var parts, texts, calls []string
	hasText := false
	for _, b := range blocks(content) {
		switch jsonl.BlockType(b.Get("type")) {
		case jsonl.BlockToolCall:
			calls = append(calls, b.String("name")+"("+serializeArgs(b.Get("arguments"))+")")
		case jsonl.BlockText:
			hasText = true
			texts = append(texts, b.String("text"))
		}
	}
	if hasText {
		parts = append(parts, "[Assistant]: "+strings.Join(texts, "\n"))
	}
	if len(calls) > 0 {
		parts = append(parts, "[Assistant tool calls]: "+strings.Join(calls, "; "))
	}
	return parts
}

// serializeArgs is Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ").
func serializeArgs(raw jsonl.RawMessage) string {
	if obj, err := jsonl.ParseObject(raw); err == nil {
		pairs := make([]string, len(obj.Keys))
		for i, k := range obj.Keys {
			pairs[i] = k + "=" + string(jsonl.Canonical(obj.Vals[i]))
		}
		return strings.Join(pairs, ", ")
	}
	elems, _ := jsonl.ParseArray(raw)
	pairs := make([]string, len(elems))
	for i, v := range elems {
		pairs[i] = strconv.Itoa(i) + "=" + string(jsonl.Canonical(v))
	}
	return strings.Join(pairs, ", ")
}

// truncateForSummary keeps the head of text and notes how much was cut.
func truncateForSummary(text string, max int) string {
	n := jsonl.UTF16Len(text)
	if n <= max {
		return text
	}
	return sliceHead(text, max) + "\n\n[... " + strconv.Itoa(n-max) + " more characters truncated]"
}
