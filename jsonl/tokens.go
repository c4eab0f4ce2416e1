package jsonl

import (
	json "github.com/goccy/go-json"
)

// EstimatedImageChars is what Pi counts for one image when estimating tokens.
const EstimatedImageChars = 4800

// EstimateTokens is Pi's estimateTokens: ceil(chars/4), chars counted in UTF-16
// code units as JavaScript does.
func EstimateTokens(m Object) int {
	switch m.String("role") {
	case RoleSystem:
		return ceilDiv4(contentChars(m.Get("content")) + sectionChars(m.Get("sections")) + StringifiedLen(nonNull(m.Get("toolsAdded"))))
	case RoleUser, RoleCustom, RoleToolResult:
		return ceilDiv4(contentChars(m.Get("content")))
	case RoleAssistant:
		return ceilDiv4(assistantChars(m.Get("content")))
	case RoleBashExecution:
		return ceilDiv4(UTF16Len(m.String("command")) + UTF16Len(m.String("output")))
	case RoleBranchSummary, RoleCompactionSummary:
		return ceilDiv4(UTF16Len(m.String("summary")))
	}
	return 0
}

func nonNull(raw RawMessage) RawMessage {
	if IsNull(raw) || string(raw) == "false" {
		return nil
	}
	return raw
}

func contentChars(content RawMessage) int {
	if s, ok := DecodeString(content); ok {
		return UTF16Len(s)
	}
	chars := 0
	for _, b := range contentBlocks(content) {
		switch BlockType(b.Get("type")) {
		case BlockText:
			chars += UTF16Len(b.String("text"))
		case BlockImage:
			chars += EstimatedImageChars
		}
	}
	return chars
}

func sectionChars(raw RawMessage) int {
	sections, err := ParseObject(raw)
	if err != nil {
		return 0
	}
	chars := 0
	for _, v := range sections.Vals {
		if s, ok := DecodeString(v); ok {
			chars += UTF16Len(s)
		}
	}
	return chars
}

func assistantChars(content RawMessage) int {
	chars := 0
	for _, b := range contentBlocks(content) {
		switch BlockType(b.Get("type")) {
		case BlockText:
			chars += UTF16Len(b.String("text"))
		case BlockThinking:
			chars += UTF16Len(b.String("thinking"))
		case BlockToolCall:
			chars += UTF16Len(b.String("name")) + StringifiedLen(b.Get("arguments"))
		}
	}
	return chars
}

// ContextTokens is Pi's estimateContextTokens result.
type ContextTokens struct {
	Tokens         int  `json:"tokens"`
	UsageTokens    int  `json:"usageTokens"`
	TrailingTokens int  `json:"trailingTokens"`
	LastUsageIndex *int `json:"lastUsageIndex"`
}

// AssistantUsageTokens returns calculateContextTokens of an assistant message's
// usage when Pi trusts it: not aborted or errored, and non-zero.
func AssistantUsageTokens(m Object) (int, bool) {
	if m.String("role") != RoleAssistant || !m.Has("usage") {
		return 0, false
	}
	if r := m.String("stopReason"); r == "aborted" || r == "error" {
		return 0, false
	}
	var u Usage
	if IsNull(m.Get("usage")) || json.Unmarshal(m.Get("usage"), &u) != nil {
		return 0, false
	}
	n := u.TotalTokens
	if n == 0 {
		n = u.Input + u.Output + u.CacheRead + u.CacheWrite
	}
	return int(n), n > 0
}

// TokenCounter is Pi's estimateContextTokens (the last trusted assistant usage
// plus estimates of the messages after it), fed one message at a time and
// keeping the per-message estimates.
type TokenCounter struct {
	PerMessage []int
	sum        contextTokens
}

// Add counts messages.
func (c *TokenCounter) Add(msgs ...Object) {
	for _, m := range msgs {
		c.PerMessage = append(c.PerMessage, c.sum.add(m))
	}
}

// Context returns the estimate for everything added so far.
func (c *TokenCounter) Context() ContextTokens { return c.sum.context() }

// contextTokens is the rule of estimateContextTokens kept as running sums,
// without an estimate per message: info sums a whole path with it, and
// TokenCounter, which keeps those estimates too, is built on it.
type contextTokens struct {
	messages, usage, trailing, usageIndex int
	seenUsage                             bool
}

// add counts one message and returns its estimate.
func (c *contextTokens) add(m Object) int {
	est := EstimateTokens(m)
	if n, ok := AssistantUsageTokens(m); ok {
		c.usageIndex, c.usage, c.trailing, c.seenUsage = c.messages, n, 0, true
	} else {
		c.trailing += est
	}
	c.messages++
	return est
}

// context returns the estimate for everything added so far.
func (c *contextTokens) context() ContextTokens {
	if !c.seenUsage {
		return ContextTokens{Tokens: c.trailing, TrailingTokens: c.trailing}
	}
	idx := c.usageIndex
	return ContextTokens{Tokens: c.usage + c.trailing, UsageTokens: c.usage, TrailingTokens: c.trailing, LastUsageIndex: &idx}
}
