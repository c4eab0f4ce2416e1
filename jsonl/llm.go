package jsonl

import (
	"strconv"
	"strings"
)

// The fixed texts Pi wraps summaries in when it hands them to a model.
const (
	CompactionSummaryPrefix = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
	CompactionSummarySuffix = "\n</summary>"
	BranchSummaryPrefix     = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	BranchSummarySuffix     = "</summary>"
)

// ConvertToLlm is Pi's convertToLlm: agent messages become the system, user,
// assistant and toolResult messages a model understands.
func ConvertToLlm(msgs []Object) []Object {
	out := make([]Object, 0, len(msgs))
	for _, m := range msgs {
		if c, ok := convertOne(m); ok {
			out = append(out, c)
		}
	}
	return out
}

func convertOne(m Object) (Object, bool) {
	if _, ok := llmRole(m); !ok {
		return Object{}, false
	}
	ts := m.Get("timestamp")
	switch m.String("role") {
	case RoleBashExecution:
		return userMessage(TextContent(BashExecutionText(m)), ts), true
	case RoleCustom:
		content := m.Get("content")
		if s, ok := DecodeString(content); ok {
			content = TextContent(s)
		}
		return userMessage(content, ts), true
	case RoleBranchSummary:
		return userMessage(TextContent(BranchSummaryPrefix+jsString(m.Get("summary"))+BranchSummarySuffix), ts), true
	case RoleCompactionSummary:
		return userMessage(TextContent(CompactionSummaryPrefix+jsString(m.Get("summary"))+CompactionSummarySuffix), ts), true
	}
	return m, true
}

// llmRole is the role of the message ConvertToLlm makes of m, without
// making it: the kinds it sends as user text are UserRole, the four the
// model reads pass as they are; ok is false for a message it drops.
func llmRole(m Object) (role Role, ok bool) {
	switch m.String("role") {
	case RoleBashExecution:
		return UserRole, !Truthy(m.Get("excludeFromContext"))
	case RoleCustom, RoleBranchSummary, RoleCompactionSummary:
		return UserRole, true
	case RoleSystem, RoleUser, RoleAssistant, RoleToolResult:
		return RoleOf(m.Get("role")), true
	}
	return NoRole, false
}

func userMessage(content, ts RawMessage) Object {
	return ObjectOf("role", QuoteString(RoleUser), "content", content, "timestamp", ts)
}

// BashExecutionText is Pi's bashExecutionToText: how a user's shell command
// reads to the model.
func BashExecutionText(m Object) string {
	var b strings.Builder
	b.WriteString("Ran `" + jsString(m.Get("command")) + "`\n")
	if out := m.Get("output"); Truthy(out) {
		b.WriteString("```\n" + jsString(out) + "\n```")
	} else {
		b.WriteString("(no output)")
	}
	exit := m.Get("exitCode")
	if Truthy(m.Get("cancelled")) {
		b.WriteString("\n\n(command cancelled)")
	} else if !IsNull(exit) && string(exit) != "0" {
		b.WriteString("\n\nCommand exited with code " + jsString(exit))
	}
	if Truthy(m.Get("truncated")) && Truthy(m.Get("fullOutputPath")) {
		b.WriteString("\n\n[Output truncated. Full output: " + jsString(m.Get("fullOutputPath")) + "]")
	}
	return b.String()
}

// jsString renders a raw value as JavaScript's String() would inside a
// template literal, for the common cases: strings, numbers and literals.
func jsString(raw RawMessage) string {
	if s, ok := DecodeString(raw); ok {
		return s
	}
	if raw == nil {
		return "undefined"
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return string(raw)
}
