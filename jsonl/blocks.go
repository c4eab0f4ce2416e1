package jsonl

import (
	"bytes"
	"fmt"
)

// The content block types of a message, as Pi writes them in a block's "type".
const (
	BlockText     = "text"
	BlockImage    = "image"
	BlockThinking = "thinking"
	BlockToolCall = "toolCall"
)

// BlockType returns a content block's type from the raw JSON value of its
// "type" key, decoded as JSON.parse reads it: "toolC\u0061ll" is
// BlockToolCall. It is "" when the value is absent or not a string, and it
// allocates only for a type Pi does not write or one written with an escape.
func BlockType(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		switch string(inner) {
		case BlockText:
			return BlockText
		case BlockToolCall:
			return BlockToolCall
		case BlockThinking:
			return BlockThinking
		case BlockImage:
			return BlockImage
		}
	}
	name, _ := DecodeString(raw)
	return name
}

// ToolCall is one tool call block of an assistant message.
type ToolCall struct {
	ID        string     // the block's "id", "" when absent or not a string
	Name      string     // the block's "name", "" when absent or not a string
	Arguments RawMessage // the block's "arguments" as written, nil when absent
	Block     Object     // the whole block, for its other keys and raw values
}

// ToolCalls returns the tool call blocks of a message's content in order: the
// objects of a content array whose type (see BlockType) is BlockToolCall.
// Content that is not an array holds none; the error is for a content array
// that may hold a tool call and is not valid JSON.
func ToolCalls(content RawMessage) ([]ToolCall, error) {
	if !mayHoldToolCall(content) {
		return nil, nil
	}
	if i := skipSpace(content, 0); i >= len(content) || content[i] != '[' {
		return nil, nil
	}
	elems, err := ParseArray(content)
	if err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	var calls []ToolCall
	for _, raw := range elems {
		if !mayHoldToolCall(raw) {
			continue
		}
		b, err := ParseObject(raw)
		if err != nil || BlockType(b.Get("type")) != BlockToolCall {
			continue
		}
		calls = append(calls, ToolCall{ID: b.String("id"), Name: b.String("name"), Arguments: b.Get("arguments"), Block: b})
	}
	return calls, nil
}

// mayHoldToolCall reports whether raw JSON can hold a block of type
// BlockToolCall: written as Pi writes it, or with a \u escape, the only
// escape that spells a letter.
func mayHoldToolCall(raw []byte) bool {
	return bytes.Contains(raw, toolCallLiteral) || bytes.Contains(raw, unicodeEscape)
}

var (
	toolCallLiteral = []byte(`"` + BlockToolCall + `"`)
	unicodeEscape   = []byte(`\u`)
)

// TextContent is a content array of one text block holding s, as Pi writes
// the content it makes up: [{"type":"text","text":s}].
func TextContent(s string) RawMessage {
	b := append([]byte(`[{"type":"`+BlockText+`","text":`), QuoteString(s)...)
	return append(b, "}]"...)
}
