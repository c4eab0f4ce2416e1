package compactor

import (
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// CurrentSystemMessage is pi-ai's getCurrentSystemMessage: every system message
// of msgs replayed into one (content joined, sections patched by name, tools
// resolved). ok is false when the messages hold no system state.
func CurrentSystemMessage(msgs []jsonl.Object) (msg jsonl.Object, ok bool) {
	var content []string
	sections := newOrderedMap()
	tools := newOrderedMap()
	var timestamp jsonl.RawMessage
	for _, m := range msgs {
		if m.String("role") != jsonl.RoleSystem {
			continue
		}
		if jsonl.IsNull(timestamp) {
			timestamp = m.Get("timestamp")
		}
		if text := contentText(m.Get("content"), "\n"); text != "" {
			content = append(content, text)
		}
		replaySections(sections, m.Get("sections"))
		replayTools(tools, m)
	}
	if jsonl.IsNull(timestamp) && tools.len() == 0 {
		return jsonl.Object{}, false
	}
	return systemObject(strings.Join(content, "\n\n"), sections, tools, timestamp), true
}

func systemObject(content string, sections, tools *orderedMap, timestamp jsonl.RawMessage) jsonl.Object {
	o := jsonl.ObjectOf("role", jsonl.QuoteString(jsonl.RoleSystem), "content", jsonl.QuoteString(content))
	if sections.len() > 0 {
		o.Set("sections", sections.object().AppendJSON(nil))
	}
	if tools.len() > 0 {
		o.Set("toolsAdded", jsonl.AppendArray(nil, tools.values()))
	}
	if jsonl.IsNull(timestamp) {
		timestamp = jsonl.RawMessage("0")
	}
	o.Set("timestamp", timestamp)
	return o
}

func replaySections(sections *orderedMap, raw jsonl.RawMessage) {
	obj, err := jsonl.ParseObject(raw)
	if err != nil {
		return
	}
	for i, name := range obj.Keys {
		if jsonl.IsNull(obj.Vals[i]) {
			sections.delete(name)
		} else {
			sections.set(name, obj.Vals[i])
		}
	}
}

// replayTools is pi-ai's getCurrentTools for one message: removals, then additions.
func replayTools(tools *orderedMap, m jsonl.Object) {
	removed, _ := jsonl.ParseArray(m.Get("toolsRemoved"))
	for _, t := range removed {
		if o, err := jsonl.ParseObject(t); err == nil {
			tools.delete(o.String("name"))
		}
	}
	added, _ := jsonl.ParseArray(m.Get("toolsAdded"))
	for _, t := range added {
		if o, err := jsonl.ParseObject(t); err == nil {
			tools.set(o.String("name"), t)
		}
	}
}

// orderedMap is a JavaScript Map of raw values: set keeps a key's first
// position, delete forgets it.
type orderedMap struct {
	obj jsonl.Object
}

func newOrderedMap() *orderedMap { return &orderedMap{} }

func (m *orderedMap) set(k string, v jsonl.RawMessage) { m.obj.Set(k, v) }
func (m *orderedMap) delete(k string)                  { m.obj.Delete(k) }
func (m *orderedMap) len() int                         { return len(m.obj.Keys) }
func (m *orderedMap) values() []jsonl.RawMessage       { return m.obj.Vals }
func (m *orderedMap) object() jsonl.Object             { return m.obj }
