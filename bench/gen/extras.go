package gen

import (
	"fmt"

	"github.com/pitool/pitool/jsonl"
)

// sprinkle writes, now and then, the entries that surround turns in real sessions: model and
// thinking changes, labels, names (always one after the first turn), extension entries, usage, context edits and shell commands.
func (g *generator) sprinkle() error {
	if !g.named && len(g.path.nodes) > systemIndex+1 {
		g.named = true
		if err := g.sessionInfo(); err != nil {
			return err
		}
	}
	scale := 1
	if g.opts.ToolHeavy {
		scale = 8
	}
	extras := []struct {
		oneIn int
		write func() error
	}{
		{30, g.changeModel}, {25, g.changeThinking}, {20, g.label}, {60, g.sessionInfo},
		{30, g.custom}, {30, g.customMessage}, {30, g.usageEntry}, {20, g.contextEdit},
		{20, g.bashExecution},
	}
	for _, e := range extras {
		if g.done() {
			return nil
		}
		if !g.chance(e.oneIn * scale) {
			continue
		}
		if err := e.write(); err != nil {
			return err
		}
	}
	return nil
}

// changeModel switches to a random model.
func (g *generator) changeModel() error {
	return g.setModel(models[g.rng.IntN(len(models))])
}

// changeThinking switches to a random thinking level.
func (g *generator) changeThinking() error {
	return g.setThinking(thinkingLevels[g.rng.IntN(len(thinkingLevels))])
}

// label marks a recent user message on the path, or now and then clears a label.
func (g *generator) label() error {
	targets := g.path.recent(kindUser, -1, 64)
	if len(targets) == 0 {
		return nil
	}
	target := g.path.nodes[targets[g.rng.IntN(len(targets))]].id
	g.labels++
	h := g.newHead("label", 5000)
	e := labelEntry{head: h, TargetID: target, Label: fmt.Sprintf("checkpoint-%d", g.labels)}
	if g.chance(6) {
		e.Label = ""
	}
	return g.emit(h.ID, kindOther, e)
}

// sessionInfo names the session.
func (g *generator) sessionInfo() error {
	h := g.newHead("session_info", 5000)
	return g.emit(h.ID, kindOther, sessionInfoEntry{head: h, Name: g.text.words(2 + g.rng.IntN(4))})
}

// custom writes an extension's state entry, which never reaches the model.
func (g *generator) custom() error {
	t := g.clock.advance(2000)
	id := g.ids.next()
	e := customEntry{Type: "custom", CustomType: "plan-mode", Data: customData{Step: g.rng.IntN(20), On: g.chance(2)},
		ID: id, ParentID: g.path.leafID(), Timestamp: jsonl.ISOTime(t)}
	return g.emit(id, kindOther, e)
}

// customMessage writes an extension's message, which reaches the model as role custom.
func (g *generator) customMessage() error {
	t := g.clock.advance(2000)
	id := g.ids.next()
	e := customMessageEntry{Type: "custom_message", CustomType: "reminder", Content: "remember: " + g.text.words(6),
		Display: g.chance(2), Details: reminderDetail{N: g.rng.IntN(50)}, ID: id, ParentID: g.path.leafID(), Timestamp: jsonl.ISOTime(t)}
	return g.emit(id, kindCustomMsg, e)
}

// usageEntry records tokens spent outside the conversation, on a title or a classifier.
func (g *generator) usageEntry() error {
	h := g.newHead("usage", 3000)
	kind := "title"
	if g.chance(2) {
		kind = "classifier"
	}
	e := usageEntry{head: h, Kind: kind, Provider: g.model.provider, Model: g.model.id,
		Usage: g.usageFor(200+g.rng.IntN(4000), 10+g.rng.IntN(800))}
	return g.emit(h.ID, kindOther, e)
}

// contextEdit rewrites a recent tool result or user message since the latest compaction, or
// drops a custom message, as Pi's appendContextEdit allows.
func (g *generator) contextEdit() error {
	from := g.path.lastCompaction()
	targets := g.path.recent(kindToolResult, from, 64)
	targets = append(targets, g.path.recent(kindUser, from, 64)...)
	targets = append(targets, g.path.recent(kindCustomMsg, from, 64)...)
	if len(targets) == 0 {
		return nil
	}
	target := g.path.nodes[targets[g.rng.IntN(len(targets))]]
	var r *replacement
	switch target.kind {
	case kindToolResult:
		r = &replacement{Content: []textBlock{{Type: "text", Text: "[edited] " + g.text.words(6)}}}
	case kindUser:
		r = &replacement{Content: "[edited] " + g.text.words(6)}
	}
	h := g.newHead("context_edit", 2000)
	return g.emit(h.ID, kindOther, contextEditEntry{head: h, TargetID: target.id, Replacement: r})
}

// bashExecution writes a shell command the user ran with "!", sometimes kept out of context.
func (g *generator) bashExecution() error {
	h := g.newHead("message", 30000)
	m := bashExecutionMessage{
		Role:               "bashExecution",
		Command:            g.text.pick(bashCommands),
		Output:             g.text.grepLines(g.text.sized(g.opts.ToolResultBytes / 2)),
		Timestamp:          g.nowMs(),
		ExcludeFromContext: g.chance(6),
	}
	if g.chance(8) {
		m.ExitCode = 1
	}
	return g.message(h, kindBash, m)
}
