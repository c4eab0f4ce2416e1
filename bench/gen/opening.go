package gen

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// toolNames are the tools the system message declares.
var toolNames = []string{"read", "bash", "edit", "write", "grep"}

// opening writes the header, then what Pi writes before the first prompt: the model, the
// thinking level and the system message.
func (g *generator) opening() error {
	h := header{Type: "session", Version: 3, ID: uuidV7(g.clock.now, g.rng), Timestamp: jsonl.ISOTime(g.clock.now), Cwd: g.opts.Cwd}
	if err := g.enc.Encode(h); err != nil {
		return fmt.Errorf("gen: write header: %w", err)
	}
	g.stats.Leaves = 1
	return g.sequence(
		func() error { return g.setModel(g.model) },
		func() error { return g.setThinking(g.level) },
		g.systemPrompt,
	)
}

// setModel writes a model_change to m and makes it the current model.
func (g *generator) setModel(m model) error {
	g.model = m
	h := g.newHead("model_change", 50)
	return g.emit(h.ID, kindOther, modelChangeEntry{head: h, Provider: m.provider, ModelID: m.id})
}

// setThinking writes a thinking_level_change to level and makes it the current level.
func (g *generator) setThinking(level string) error {
	g.level = level
	h := g.newHead("thinking_level_change", 50)
	return g.emit(h.ID, kindOther, thinkingLevelEntry{head: h, ThinkingLevel: level})
}

// systemPrompt writes the system message that declares the prompt sections and the tools, and
// keeps it for the compactions to copy.
func (g *generator) systemPrompt() error {
	h := g.newHead("message", 50)
	var tools strings.Builder
	tools.WriteString("<tools>\n")
	for _, name := range toolNames {
		fmt.Fprintf(&tools, "- %s: %s\n", name, g.text.words(6))
	}
	tools.WriteString("</tools>")
	g.system = systemMessage{
		Role:    "system",
		Content: "",
		Sections: sections{
			Preamble: "You are an expert coding assistant. " + g.text.prose(200),
			Tools:    tools.String(),
			Rules:    "<rules>\n- " + g.text.words(8) + "\n- " + g.text.words(8) + "\n- Be concise in your responses\n</rules>",
			Cwd:      "<cwd>\n" + g.opts.Cwd + "\n</cwd>",
		},
		Timestamp:  g.nowMs(),
		ToolsAdded: g.toolDefs(),
	}
	return g.message(h, kindSystem, g.system)
}

// toolDefs declares every tool with the parameters its calls use.
func (g *generator) toolDefs() []toolDef {
	defs := make([]toolDef, 0, len(toolNames))
	for _, name := range toolNames {
		params := toolParams{Type: "object"}
		switch name {
		case "read":
			params.Required = []string{"path"}
			params.Properties = toolProps{Path: g.prop("string"), Offset: g.prop("number"), Limit: g.prop("number")}
		case "bash":
			params.Required = []string{"command"}
			params.Properties = toolProps{Command: g.prop("string"), Timeout: g.prop("number")}
		case "edit":
			params.Required = []string{"path", "edits"}
			params.Properties = toolProps{Path: g.prop("string"), Edits: g.prop("array")}
		case "write":
			params.Required = []string{"path", "content"}
			params.Properties = toolProps{Path: g.prop("string"), Content: g.prop("string")}
		case "grep":
			params.Required = []string{"pattern"}
			params.Properties = toolProps{Pattern: g.prop("string"), Path: g.prop("string")}
		}
		defs = append(defs, toolDef{Name: name, Description: name + " " + g.text.words(10), Parameters: params})
	}
	return defs
}

// prop describes one tool parameter of type typ.
func (g *generator) prop(typ string) *propSchema {
	return &propSchema{Type: typ, Description: g.text.words(5)}
}
