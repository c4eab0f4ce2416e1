package gen

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

const (
	// entryOverhead bounds the JSON bytes of an entry besides its generated strings: keys, ids,
	// timestamps, usage, model names.
	entryOverhead = 1024
	// blockOverhead bounds the JSON bytes of one content block besides its strings.
	blockOverhead = 256
)

// model is a provider model that assistant messages name, with its prices in dollars per
// million input, output, cache-read and cache-write tokens.
type model struct {
	api, provider, id string
	price             [4]float64
}

// models are the models a session switches between; the first one opens it.
var models = []model{
	{"anthropic-messages", "anthropic", "claude-sonnet-4-5", [4]float64{3, 15, 0.3, 3.75}},
	{"anthropic-messages", "anthropic", "claude-opus-4-5", [4]float64{5, 25, 0.5, 6.25}},
	{"anthropic-messages", "anthropic", "claude-haiku-4-5", [4]float64{1, 5, 0.1, 1.25}},
	{"openai-responses", "openai", "gpt-5.1-codex", [4]float64{1.25, 10, 0.125, 0}},
	{"google-generative-ai", "google", "gemini-2.5-pro", [4]float64{1.25, 10, 0.31, 0}},
}

// thinkingLevels are the values of thinking_level_change entries.
var thinkingLevels = []string{"off", "minimal", "low", "medium", "high"}

// turn writes one exchange: maybe a branch or a compaction, a few side entries, a user message,
// tool steps and the final answer.
func (g *generator) turn() error {
	return g.sequence(g.maybeBranch, g.maybeCompact, g.sprinkle, g.userMessage, g.toolSteps, g.finalAnswer)
}

// userMessage writes a user prompt, as text blocks or, sometimes, a plain string.
func (g *generator) userMessage() error {
	h := g.newHead("message", 60000)
	text := fmt.Sprintf("Please %s in %s.", g.text.words(3+g.rng.IntN(12)), g.text.pick(projectFiles))
	if !g.opts.ToolHeavy && g.chance(3) {
		text += "\n\n" + g.text.prose(100+g.rng.IntN(600))
	}
	var content any = []textBlock{{Type: "text", Text: text}}
	if g.chance(4) {
		content = text
	}
	return g.message(h, kindUser, userMessage{Role: "user", Content: content, Timestamp: g.nowMs()})
}

// stepCount is the number of tool-calling assistant messages in a turn.
func (g *generator) stepCount() int {
	if g.opts.ToolHeavy {
		return 3 + g.rng.IntN(6)
	}
	return g.rng.IntN(4)
}

// toolSteps writes the turn's tool calls. A step that would pass the target is not written, so
// the session never ends between a call and its result.
func (g *generator) toolSteps() error {
	for range g.stepCount() {
		s := g.planStep()
		if !g.fits(1+len(s.results), s.bound()) {
			return nil
		}
		if err := g.writeStep(s); err != nil {
			return err
		}
	}
	return nil
}

// finalAnswer writes the assistant message that ends a turn.
func (g *generator) finalAnswer() error {
	h := g.newHead("message", 9000)
	msg := g.assistant("stop")
	raw := g.think(&msg)
	text := "Done. " + g.text.prose(g.text.sized(300))
	if !g.opts.ToolHeavy {
		text += fmt.Sprintf("\n\n- %s\n- %s\n\n| file | change |\n|---|---|\n| %s | %s |",
			g.text.words(5), g.text.words(5), g.text.pick(projectFiles), g.text.words(3))
	}
	msg.Content = append(msg.Content, textBlock{Type: "text", Text: text})
	g.finishAssistant(&msg, raw+len(text))
	return g.message(h, kindFinal, msg)
}

// step is an assistant message that calls tools, with the results that answer the calls.
type step struct {
	msg     assistantMessage
	results []toolResultMessage
	raw     int // bytes of generated strings in msg and results
}

// bound is an upper limit on the bytes the step's entries take: JSON escaping at most doubles a
// generated string, which holds no control character but newlines.
func (s *step) bound() int64 {
	entries := 1 + len(s.results)
	blocks := len(s.msg.Content) + len(s.results)
	return int64(2*s.raw + entries*entryOverhead + blocks*blockOverhead)
}

// note counts str in the step's raw size and returns it.
func (s *step) note(str string) string {
	s.raw += len(str)
	return str
}

// planStep builds a step without writing it or touching anything but the random source.
func (g *generator) planStep() step {
	s := step{msg: g.assistant("toolUse")}
	s.raw += g.think(&s.msg)
	if !g.opts.ToolHeavy || g.chance(4) {
		text := fmt.Sprintf("Let me look at **%s**:\n\n```go\n%s```", g.text.pick(projectFiles), g.text.code(120))
		s.msg.Content = append(s.msg.Content, textBlock{Type: "text", Text: s.note(text)})
	}
	calls := 1 + g.rng.IntN(3)
	if g.opts.ToolHeavy {
		calls = 1 + g.rng.IntN(4)
	}
	for range calls {
		call, result := g.toolCall(&s)
		s.msg.Content = append(s.msg.Content, call)
		s.results = append(s.results, result)
	}
	return s
}

// writeStep writes the step's assistant message and then its results, and records the files
// its calls read and changed.
func (g *generator) writeStep(s step) error {
	h := g.newHead("message", 9000)
	g.finishAssistant(&s.msg, s.raw)
	if err := g.message(h, kindToolUse, s.msg); err != nil {
		return err
	}
	for _, r := range s.results {
		h := g.newHead("message", 3000)
		r.Timestamp = g.nowMs()
		if err := g.message(h, kindToolResult, r); err != nil {
			return err
		}
	}
	g.files.record(s.msg.Content)
	g.stats.ToolCalls += int64(len(s.results))
	return nil
}

// assistant starts an assistant message from the current model and thinking level.
func (g *generator) assistant(stopReason string) assistantMessage {
	return assistantMessage{
		Role:          "assistant",
		API:           g.model.api,
		Provider:      g.model.provider,
		Model:         g.model.id,
		StopReason:    stopReason,
		ResponseID:    "msg_01" + g.text.alnum(22),
		ThinkingLevel: g.level,
	}
}

// think adds a thinking block unless thinking is off, and returns its size.
func (g *generator) think(msg *assistantMessage) int {
	if g.level == "off" {
		return 0
	}
	text := g.text.prose(g.text.sized(240))
	msg.Content = append(msg.Content, thinkingBlock{Type: "thinking", Thinking: text, ThinkingSignature: g.text.hex(32)})
	return len(text) + 32
}

// finishAssistant stamps msg with the current time and a usage that fits the path's size.
func (g *generator) finishAssistant(msg *assistantMessage, raw int) {
	msg.Timestamp = g.nowMs()
	msg.DurationMs = 400 + g.rng.IntN(8000)
	msg.Usage = g.usageFor(g.contextTokens(), 10+raw/4)
}

// contextTokens estimates the tokens the model saw: the path since the latest compaction, at
// four bytes a token, plus the system prompt.
func (g *generator) contextTokens() int {
	last := g.path.lastCompaction()
	n := g.path.bytesTo(len(g.path.nodes)-1) - g.path.bytesTo(last)
	return 2000 + int(n/4)
}

// usageFor splits context tokens into fresh, cache-read and cache-write tokens and prices them
// with the current model.
func (g *generator) usageFor(context, output int) usage {
	m := g.model
	cacheRead := context * (60 + g.rng.IntN(35)) / 100
	cacheWrite := 0
	if m.price[3] > 0 {
		cacheWrite = min(context-cacheRead, 50+g.rng.IntN(2000))
	}
	input := context - cacheRead - cacheWrite
	c := cost{
		Input:      price(input, m.price[0]),
		Output:     price(output, m.price[1]),
		CacheRead:  price(cacheRead, m.price[2]),
		CacheWrite: price(cacheWrite, m.price[3]),
	}
	c.Total = round6(c.Input + c.Output + c.CacheRead + c.CacheWrite)
	return usage{Input: input, Output: output, CacheRead: cacheRead, CacheWrite: cacheWrite,
		TotalTokens: context + output, Cost: c}
}

// price is the cost of n tokens at perMillion dollars, rounded to a millionth of a dollar so
// that Go and JavaScript print the number alike (neither uses an exponent at or above 1e-6).
func price(n int, perMillion float64) float64 {
	return round6(float64(n) * perMillion / 1e6)
}

// round6 rounds x to six decimals.
func round6(x float64) float64 {
	return math.Round(x*1e6) / 1e6
}

// fileOps are the files read and changed by tool calls so far, for compaction details.
type fileOps struct {
	read, modified map[string]bool
}

// newFileOps returns empty file sets.
func newFileOps() fileOps {
	return fileOps{read: map[string]bool{}, modified: map[string]bool{}}
}

// record adds the paths of the read, edit and write calls in content.
func (f fileOps) record(content []any) {
	for _, block := range content {
		call, ok := block.(toolCallBlock)
		if !ok {
			continue
		}
		switch a := call.Arguments.(type) {
		case readArgs:
			f.read[a.Path] = true
		case editArgs:
			f.modified[a.Path] = true
		case writeArgs:
			f.modified[a.Path] = true
		}
	}
}

// details lists the files as Pi's computeFileLists does: read-only files and modified files,
// each sorted.
func (f fileOps) details() fileDetails {
	d := fileDetails{ReadFiles: []string{}, ModifiedFiles: []string{}}
	for _, p := range projectFiles {
		switch {
		case f.modified[p]:
			d.ModifiedFiles = append(d.ModifiedFiles, p)
		case f.read[p]:
			d.ReadFiles = append(d.ReadFiles, p)
		}
	}
	slices.Sort(d.ReadFiles)
	slices.Sort(d.ModifiedFiles)
	return d
}

// fileTags renders d as Pi's formatFileOperations appends it to a summary.
func fileTags(d fileDetails) string {
	var parts []string
	if len(d.ReadFiles) > 0 {
		parts = append(parts, "<read-files>\n"+strings.Join(d.ReadFiles, "\n")+"\n</read-files>")
	}
	if len(d.ModifiedFiles) > 0 {
		parts = append(parts, "<modified-files>\n"+strings.Join(d.ModifiedFiles, "\n")+"\n</modified-files>")
	}
	if len(parts) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(parts, "\n\n")
}
