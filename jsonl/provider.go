package jsonl

import "strings"

// NoResultText is the text of the synthetic result a provider gets for a tool
// call that was never answered.
const NoResultText = "No result provided"

// ProviderModel identifies the model a provider view is built for.
type ProviderModel struct {
	Provider, API, ID string
}

// LastAssistantModel returns the model of the last assistant message, the
// model pi-ref's provider view targets.
func LastAssistantModel(msgs []Object) ProviderModel {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].String("role") == RoleAssistant {
			return ProviderModel{Provider: msgs[i].String("provider"), API: msgs[i].String("api"), ID: msgs[i].String("model")}
		}
	}
	return ProviderModel{}
}

// TransformMessages is Pi's transformMessages for a model that takes images:
// thinking from other models dropped, errored and aborted assistant turns
// dropped, and a synthetic error result for every unanswered tool call. The
// synthetic results carry timestamp 0 so that output is reproducible.
func TransformMessages(msgs []Object, model ProviderModel) []Object {
	t := &toolAccounting{}
	for _, m := range msgs {
		if IsNull(m.Get("content")) {
			m = m.Clone()
			m.Set("content", RawMessage("[]"))
		}
		t.add(m, model)
	}
	t.closePending()
	return t.out
}

type toolAccounting struct {
	out      []Object
	pending  []Object // tool calls of the last assistant message
	answered map[string]bool
	held     []Object // system messages met inside a tool exchange
}

func (t *toolAccounting) add(m Object, model ProviderModel) {
	switch m.String("role") {
	case RoleAssistant:
		t.closePending()
		if r := m.String("stopReason"); r == "error" || r == "aborted" {
			return
		}
		m = transformAssistant(m, model)
		if calls := toolCalls(m); len(calls) > 0 {
			t.pending, t.answered = calls, map[string]bool{}
		}
		t.out = append(t.out, m)
	case RoleToolResult:
		if t.answered != nil {
			t.answered[m.String("toolCallId")] = true
		}
		t.out = append(t.out, m)
	case RoleSystem:
		if len(t.pending) > 0 {
			t.held = append(t.held, m)
		} else {
			t.out = append(t.out, m)
		}
	case RoleUser:
		t.closePending()
		t.out = append(t.out, m)
	default:
		t.out = append(t.out, m)
	}
}

func (t *toolAccounting) closePending() {
	for _, call := range t.pending {
		if !t.answered[call.String("id")] {
			t.out = append(t.out, ObjectOf("role", QuoteString(RoleToolResult), "toolCallId", call.Get("id"),
				"toolName", call.Get("name"), "content", textBlocks(NoResultText), "isError", RawMessage("true"),
				"timestamp", RawMessage("0")))
		}
	}
	t.pending, t.answered = nil, nil
	t.out = append(t.out, t.held...)
	t.held = nil
}

func toolCalls(m Object) []Object {
	var calls []Object
	for _, b := range contentBlocks(m.Get("content")) {
		if b.String("type") == "toolCall" {
			calls = append(calls, b)
		}
	}
	return calls
}

// contentBlocks parses a content array into its blocks; a string or a
// malformed value gives none.
func contentBlocks(content RawMessage) []Object {
	elems, err := ParseArray(content)
	if err != nil {
		return nil
	}
	blocks := make([]Object, 0, len(elems))
	for _, e := range elems {
		if b, err := ParseObject(e); err == nil {
			blocks = append(blocks, b)
		}
	}
	return blocks
}

func transformAssistant(m Object, model ProviderModel) Object {
	same := m.String("provider") == model.Provider && m.String("api") == model.API && m.String("model") == model.ID
	elems, err := ParseArray(m.Get("content"))
	if err != nil {
		return m
	}
	kept := make([]RawMessage, 0, len(elems))
	for _, e := range elems {
		if b, ok := transformBlock(e, same); ok {
			kept = append(kept, b)
		}
	}
	m = m.Clone()
	m.Set("content", AppendArray(nil, kept))
	return m
}

func transformBlock(raw RawMessage, same bool) (RawMessage, bool) {
	b, err := ParseObject(raw)
	if err != nil {
		return raw, true
	}
	switch b.String("type") {
	case "thinking":
		if !same {
			return nil, false
		}
		if Truthy(b.Get("redacted")) || Truthy(b.Get("thinkingSignature")) {
			return raw, true
		}
		return raw, strings.TrimSpace(b.String("thinking")) != ""
	case "text":
		if same {
			return raw, true
		}
		return ObjectOf("type", QuoteString("text"), "text", b.Get("text")).AppendJSON(nil), true
	case "toolCall":
		if !same && Truthy(b.Get("thoughtSignature")) {
			b = b.Clone()
			b.Delete("thoughtSignature")
			return b.AppendJSON(nil), true
		}
	}
	return raw, true
}
