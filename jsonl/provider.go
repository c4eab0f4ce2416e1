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
// model pi-ref's provider view targets; ok is false when there is none.
func LastAssistantModel(msgs []Object) (model ProviderModel, ok bool) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].String("role") == RoleAssistant {
			return ProviderModel{Provider: msgs[i].String("provider"), API: msgs[i].String("api"), ID: msgs[i].String("model")}, true
		}
	}
	return ProviderModel{}, false
}

// TransformMessages is Pi's transformMessages for a model that takes images:
// thinking from other models dropped, errored and aborted assistant turns
// dropped, and a synthetic error result for every unanswered tool call. The
// synthetic results carry timestamp 0 so that output is reproducible.
func TransformMessages(msgs []Object, model ProviderModel) []Object {
	var out []Object
	t := NewProviderTransform(model, func(m Object) error { out = append(out, m); return nil })
	for _, m := range msgs {
		t.Add(m)
	}
	t.Close()
	return out
}

// ProviderTransform is TransformMessages one message at a time, for streaming:
// each message goes to emit as soon as its place is known.
type ProviderTransform struct {
	model    ProviderModel
	emit     func(Object) error
	err      error
	pending  []ToolCall // tool calls of the last assistant message
	answered map[string]bool
	held     []Object // system messages met inside a tool exchange
}

// NewProviderTransform returns a transform for model that sends its output to emit.
func NewProviderTransform(model ProviderModel, emit func(Object) error) *ProviderTransform {
	return &ProviderTransform{model: model, emit: emit}
}

// Add transforms one llm message.
func (t *ProviderTransform) Add(m Object) {
	if IsNull(m.Get("content")) {
		m = m.Clone()
		m.Set("content", RawMessage("[]"))
	}
	switch m.String("role") {
	case RoleAssistant:
		t.closePending()
		if r := m.String("stopReason"); r == "error" || r == "aborted" {
			return
		}
		m = transformAssistant(m, t.model)
		if calls, _ := ToolCalls(m.Get("content")); len(calls) > 0 {
			t.pending, t.answered = calls, map[string]bool{}
		}
		t.send(m)
	case RoleToolResult:
		if t.answered != nil {
			t.answered[m.String("toolCallId")] = true
		}
		t.send(m)
	case RoleSystem:
		if len(t.pending) > 0 {
			t.held = append(t.held, m)
		} else {
			t.send(m)
		}
	case RoleUser:
		t.closePending()
		t.send(m)
	default:
		t.send(m)
	}
}

// Close answers tool calls still pending at the end and returns the first
// error emit gave.
func (t *ProviderTransform) Close() error {
	t.closePending()
	return t.err
}

func (t *ProviderTransform) send(m Object) {
	if t.err == nil {
		t.err = t.emit(m)
	}
}

func (t *ProviderTransform) closePending() {
	for _, call := range t.pending {
		if !t.answered[call.ID] {
			t.send(ObjectOf("role", QuoteString(RoleToolResult), "toolCallId", call.Block.Get("id"),
				"toolName", call.Block.Get("name"), "content", TextContent(NoResultText), "isError", RawMessage("true"),
				"timestamp", RawMessage("0")))
		}
	}
	t.pending, t.answered = nil, nil
	for _, m := range t.held {
		t.send(m)
	}
	t.held = nil
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
	switch BlockType(b.Get("type")) {
	case BlockThinking:
		if !same {
			return nil, false
		}
		if Truthy(b.Get("redacted")) || Truthy(b.Get("thinkingSignature")) {
			return raw, true
		}
		return raw, strings.TrimSpace(b.String("thinking")) != ""
	case BlockText:
		if same {
			return raw, true
		}
		return ObjectOf("type", QuoteString(BlockText), "text", b.Get("text")).AppendJSON(nil), true
	case BlockToolCall:
		if !same && Truthy(b.Get("thoughtSignature")) {
			b = b.Clone()
			b.Delete("thoughtSignature")
			return b.AppendJSON(nil), true
		}
	}
	return raw, true
}
