package jsonl

import (
	"slices"
	"strconv"
)

// DecodeMessage decodes a message object as Unmarshal would, in one pass over
// the bytes and without copying them: its RawMessage fields are slices of
// raw. Like DecodeBlocks it takes only the objects whose decoding is plain
// (Message's keys as Pi writes them, each once, values of their fields'
// types and not null, no \u escape of a surrogate, valid UTF-8 with no
// control character, no "sections"); for any other, ok is false and the caller unmarshals it.
// raw must be valid JSON, as DecodeBlocks' content must.
// FuzzDecodeMessage holds it to Unmarshal.
func DecodeMessage(raw []byte) (m Message, ok bool) {
	m, _, ok, _ = decodeMessage(raw, false)
	return m, ok
}

// DecodeMessageBlocks is DecodeMessage, then DecodeBlocks of the message's
// content, in one walk of the bytes: the content's blocks are decoded where
// the message's walk meets them, and the bytes are checked once for both (the
// export walked and checked each content twice, issue 16). blocksOK is false
// when the message's decoding is not plain, its content is not an array, or
// the array's decoding is not plain; the blocks share raw's bytes as
// DecodeMessage's fields do.
func DecodeMessageBlocks(raw []byte) (m Message, blocks []Block, ok, blocksOK bool) {
	return decodeMessage(raw, true)
}

// decodeMessage is DecodeMessage, and with withBlocks DecodeMessageBlocks.
func decodeMessage(raw []byte, withBlocks bool) (m Message, blocks []Block, ok, blocksOK bool) {
	if !plainText(raw) {
		return Message{}, nil, false, false
	}
	end, ok := plainMembersAt(raw, skipSpace(raw, 0), messageKeys[:], func(k, vstart int) (int, bool) {
		if withBlocks && k == contentKey {
			var vend int
			if blocks, vend, blocksOK = decodeBlocksAt(raw, vstart); blocksOK {
				m.Content = raw[vstart:vend]
				return vend, true
			}
		}
		vend, err := SkipValue(raw, vstart)
		return vend, err == nil && setMessageField(&m, k, raw[vstart:vend])
	})
	if !ok || skipSpace(raw, end) != len(raw) {
		return Message{}, nil, false, false
	}
	return m, blocks, true, blocksOK
}

// messageKeys are Message's JSON keys, in field order.
var messageKeys = [...]string{"role", "content", "timestamp", "sections", "toolsAdded", "toolsRemoved",
	"api", "provider", "model", "usage", "stopReason", "errorMessage", "thinkingLevel", "responseModel",
	"toolCallId", "toolName", "details", "isError", "nestedCalls",
	"command", "output", "exitCode", "cancelled", "truncated", "fullOutputPath", "excludeFromContext",
	"customType", "display", "summary", "fromId", "tokensBefore"}

// contentKey is the index of "content" in messageKeys.
var contentKey = slices.Index(messageKeys[:], "content")

// setMessageField sets the field of messageKeys[k] from its plain raw value.
func setMessageField(m *Message, k int, val []byte) bool {
	if string(val) == "null" {
		return false
	}
	if f := messageRaw(m, k); f != nil {
		*f = val
		return true
	}
	if f := messageString(m, k); f != nil {
		s, ok := plainString(val)
		*f = s
		return ok
	}
	if f := messageBool(m, k); f != nil {
		return plainBool(val, f)
	}
	switch messageKeys[k] {
	case "usage":
		m.Usage = &Usage{}
		return decodeUsage(val, m.Usage)
	case "exitCode":
		n, ok := plainInt(val)
		m.ExitCode = &n
		return ok
	case "display":
		m.Display = new(bool)
		return plainBool(val, m.Display)
	case "tokensBefore":
		return plainFloat(val, &m.TokensBefore)
	}
	return false // sections
}

func messageRaw(m *Message, k int) *RawMessage {
	switch messageKeys[k] {
	case "content":
		return &m.Content
	case "timestamp":
		return &m.Timestamp
	case "toolsAdded":
		return &m.ToolsAdded
	case "toolsRemoved":
		return &m.ToolsRemoved
	case "details":
		return &m.Details
	case "nestedCalls":
		return &m.NestedCalls
	}
	return nil
}

func messageString(m *Message, k int) *string {
	switch messageKeys[k] {
	case "role":
		return &m.Role
	case "api":
		return &m.API
	case "provider":
		return &m.Provider
	case "model":
		return &m.Model
	case "stopReason":
		return &m.StopReason
	case "errorMessage":
		return &m.ErrorMessage
	case "thinkingLevel":
		return &m.ThinkingLevel
	case "responseModel":
		return &m.ResponseModel
	case "toolCallId":
		return &m.ToolCallID
	case "toolName":
		return &m.ToolName
	case "command":
		return &m.Command
	case "output":
		return &m.Output
	case "fullOutputPath":
		return &m.FullOutputPath
	case "customType":
		return &m.CustomType
	case "summary":
		return &m.Summary
	case "fromId":
		return &m.FromID
	}
	return nil
}

func messageBool(m *Message, k int) *bool {
	switch messageKeys[k] {
	case "isError":
		return &m.IsError
	case "cancelled":
		return &m.Cancelled
	case "truncated":
		return &m.Truncated
	case "excludeFromContext":
		return &m.ExcludeFromContext
	}
	return nil
}

var (
	usageKeys = [...]string{"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"}
	costKeys  = [...]string{"input", "output", "cacheRead", "cacheWrite", "total"}
)

// decodeUsage decodes a plain usage object into u.
func decodeUsage(val []byte, u *Usage) bool {
	fields := [...]*float64{&u.Input, &u.Output, &u.CacheRead, &u.CacheWrite, &u.TotalTokens}
	end, ok := plainMembers(val, 0, usageKeys[:], func(k int, v []byte) bool {
		if k < len(fields) {
			return plainFloat(v, fields[k])
		}
		u.Cost = &Cost{}
		return decodeCost(v, u.Cost)
	})
	return ok && end == len(val)
}

// decodeCost decodes a plain cost object into c.
func decodeCost(val []byte, c *Cost) bool {
	fields := [...]*float64{&c.Input, &c.Output, &c.CacheRead, &c.CacheWrite, &c.Total}
	end, ok := plainMembers(val, 0, costKeys[:], func(k int, v []byte) bool { return plainFloat(v, fields[k]) })
	return ok && end == len(val)
}

func plainBool(val []byte, b *bool) bool {
	switch string(val) {
	case "true":
		*b = true
	case "false":
		*b = false
	default:
		return false
	}
	return true
}

// plainInt reads an integer literal of at most 18 digits.
func plainInt(val []byte) (int, bool) {
	digits := val
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(string(val))
	return n, err == nil
}

// plainFloat reads a JSON number literal that is a finite float64.
func plainFloat(val []byte, f *float64) bool {
	if len(val) == 0 || (val[0] != '-' && (val[0] < '0' || val[0] > '9')) {
		return false
	}
	for _, c := range val {
		if (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			return false
		}
	}
	v, err := strconv.ParseFloat(string(val), 64)
	*f = v
	return err == nil
}
