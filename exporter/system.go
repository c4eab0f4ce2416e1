package exporter

import (
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// systemOf reads a system message: the whole prompt and tool declarations
// when it starts the branch's prompt, otherwise what it changes, as Pi's page
// does.
func systemOf(e *jsonl.Entry, leading bool) *System {
	msg, _ := e.Message()
	sections, _ := jsonl.ParseObject(msg.Get("sections"))
	content, _ := contentOf(msg.Get("content"))
	s := &System{Title: "System prompt", Tools: toolDecls(msg.Get("toolsAdded")), Removed: names(msg.Get("toolsRemoved"))}
	s.Text = promptText(content, sections)
	if !leading {
		s.Text, s.Update = promptUpdate(content, sections), true
		s.Title = "System prompt update"
		if c := describeUpdate(content, sections, s); c != "" {
			s.Title += ": " + c
		}
	}
	return s
}

// promptText is Pi's getSystemMessageText: the content, then every section
// that is set, separated by blank lines.
func promptText(content string, sections jsonl.Object) string {
	parts := []string{content}
	for _, v := range sections.Vals {
		if s, ok := jsonl.DecodeString(v); ok {
			parts = append(parts, s)
		}
	}
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

// promptUpdate is Pi's renderSystemMessageUpdate.
func promptUpdate(content string, sections jsonl.Object) string {
	var parts []string
	if content != "" {
		parts = append(parts, content)
	}
	for i, name := range sections.Keys {
		if s, ok := jsonl.DecodeString(sections.Vals[i]); ok {
			parts = append(parts, "Updated system prompt section \""+name+"\":\n\n"+s)
		} else {
			parts = append(parts, "Removed system prompt section \""+name+"\".")
		}
	}
	return strings.Join(parts, "\n\n")
}

// describeUpdate is Pi's describeSystemUpdate: "instructions, rules, -old, tools +bash -ls".
func describeUpdate(content string, sections jsonl.Object, s *System) string {
	var parts, tools []string
	if content != "" {
		parts = append(parts, "instructions")
	}
	for i, name := range sections.Keys {
		if jsonl.IsNull(sections.Vals[i]) {
			name = "-" + name
		}
		parts = append(parts, name)
	}
	for _, t := range s.Tools {
		tools = append(tools, "+"+t.Name)
	}
	for _, t := range s.Removed {
		tools = append(tools, "-"+t)
	}
	if len(tools) > 0 {
		parts = append(parts, "tools "+strings.Join(tools, " "))
	}
	return strings.Join(parts, ", ")
}

// toolDecls reads tool declarations with their JSON-schema parameters.
func toolDecls(raw jsonl.RawMessage) []ToolDecl {
	elems, _ := jsonl.ParseArray(raw)
	var out []ToolDecl
	for _, el := range elems {
		t, err := jsonl.ParseObject(el)
		if err != nil {
			continue
		}
		d := ToolDecl{Name: t.String("name"), Description: t.String("description")}
		params, _ := jsonl.ParseObject(t.Get("parameters"))
		props, _ := jsonl.ParseObject(params.Get("properties"))
		required := map[string]bool{}
		for _, n := range stringList(params.Get("required")) {
			required[n] = true
		}
		for i, name := range props.Keys {
			p, _ := jsonl.ParseObject(props.Vals[i])
			typ := p.String("type")
			if typ == "" {
				typ = "any"
			}
			d.Params = append(d.Params, ToolParam{Name: name, Type: typ, Description: p.String("description"), Required: required[name]})
		}
		out = append(out, d)
	}
	return out
}

// names reads a list of tool names, given as strings or as {name} objects.
func names(raw jsonl.RawMessage) []string {
	elems, _ := jsonl.ParseArray(raw)
	var out []string
	for _, el := range elems {
		if s, ok := jsonl.DecodeString(el); ok {
			out = append(out, s)
		} else if o, err := jsonl.ParseObject(el); err == nil {
			out = append(out, o.String("name"))
		}
	}
	return out
}
