package exporter

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// Kind is what an item shows; HTML uses it as the entry's class.
type Kind string

// The kinds of item.
const (
	KindUser          Kind = "user"
	KindAssistant     Kind = "assistant"
	KindTool          Kind = "tool" // a tool result
	KindBash          Kind = "bash" // a command the user ran
	KindSystem        Kind = "system"
	KindCustom        Kind = "custom"
	KindCompaction    Kind = "compaction"
	KindBranchSummary Kind = "summary"
	KindSetting       Kind = "setting" // a one-line entry: model change, label, usage…
)

// Item is one entry of the transcript: where it sits in the tree, and one
// body: User, Turn, Result (with Tool when it is not shown with its call),
// Bash, System, Summary, Custom or, for a one-line entry, Setting.
type Item struct {
	ID         string
	Parent     string // the entry that shows the parent (for a result shown with its call: the call's)
	Time       string // "2006-01-02 15:04:05"
	Label      string
	BranchFrom string // AllBranches: the parent, when the entry shown before is not it
	OffPath    bool   // AllBranches: not on the branch shown first
	Kind       Kind
	// Aside marks what a reader of the conversation can skip: system
	// prompts, hidden custom messages, labels, names, context edits, usage,
	// extension data and entries of unknown types or roles.
	Aside bool
	// ShownWith is set on a tool result already shown with its call: the id
	// of the call's entry.
	ShownWith string

	User    *User
	Turn    *Turn
	Result  *ToolResult // a tool result
	Tool    *ToolCall   // a tool result not shown with its call: the call as far as the result tells
	Bash    *Bash
	System  *System
	Summary *Summary
	Custom  *Custom
	Setting string
}

// User is a user message.
type User struct {
	Text   string // markdown
	Images []Image
}

// Image is an image a browser can show, as a data: URL.
type Image struct{ Src string }

// Turn is an assistant message: its blocks in order, and how it stopped.
type Turn struct {
	Provider, Model string
	Blocks          []Block
	Stop            string // "aborted", "error", or "" when it ended normally
	Error           string // the error message recorded (may be empty)
}

// BlockKind tells the blocks of a turn apart.
type BlockKind int

// The kinds of block of a turn.
const (
	TextBlock     BlockKind = iota // Text: markdown, never blank
	ThinkingBlock                  // Thinking, or Redacted
	CallBlock                      // Call
)

// Block is one block of a turn: text, thinking or a tool call.
type Block struct {
	Kind     BlockKind
	Text     string
	Thinking string
	Redacted bool // thinking the provider withheld
	Call     *ToolCall
}

// Bash is a command the user ran in Pi (!cmd).
type Bash struct {
	Command   string
	Output    string // "" when empty or left out
	Exit      string // the exit code, "" when 0 or unknown
	Cancelled bool
	Excluded  bool   // not sent to the model (!!cmd)
	Truncated string // the full output's file, when the output was cut
}

// System is a system message: the whole prompt when it starts the branch's
// prompt, otherwise what it changes, as Pi's own export shows it.
type System struct {
	Title   string // "System prompt", or "System prompt update: …"
	Update  bool
	Text    string
	Tools   []ToolDecl
	Removed []string // tool names
}

// ToolDecl is a tool a system message declares.
type ToolDecl struct {
	Name, Description string
	Params            []ToolParam
}

// ToolParam is one parameter of a declared tool.
type ToolParam struct {
	Name, Type, Description string
	Required                bool
}

// Summary is a compaction or a branch summary.
type Summary struct {
	Compaction bool
	Title      string // what it summarizes, in a sentence
	Text       string // markdown
	Read       []string
	Modified   []string
}

// Custom is a message an extension sent: a custom_message entry or a
// message with role custom.
type Custom struct {
	Type   string
	Hidden bool   // display: false, Pi's terminal does not show it
	Text   string // the content's text: a string, or its text blocks joined
	JSON   string // the content as JSON, when it has no text form at all
	Images []Image
	// Raw is the content as recorded, and Message tells a message with role
	// custom from a custom_message entry: Markdown shows an entry's content
	// that is not a string as JSON.
	Raw     jsonl.RawMessage
	Message bool
}

// item makes the item of entry d.e.
func (t *Transcript) item(d *decoded) (*Item, error) {
	e := d.e
	it := &Item{ID: e.ID, Parent: e.ParentID(), Time: shortTime(e.Timestamp())}
	if shownIn, ok := t.within[it.Parent]; ok {
		it.Parent = shownIn // a format that nests results links to the entry that has them
	}
	if l, ok := t.ix.Label(e.N); ok {
		it.Label = t.labels[l]
	}
	if e.Parent != t.prev && t.opts.AllBranches && e.Parent >= 0 {
		it.BranchFrom = t.id(e.Parent)
	}
	it.OffPath = t.onPath != nil && !t.onPath[e.N]
	var err error
	switch e.Type {
	case jsonl.TypeMessage:
		err = t.message(it, d)
	case jsonl.TypeCustomMessage:
		t.custom(it, d, e.Obj.String("customType"), e.Obj.Get("content"), e.Obj.Get("display"), false)
	case jsonl.TypeBranchSummary, jsonl.TypeCompaction:
		t.summary(it, e)
	default:
		it.Kind, it.Setting = KindSetting, settingText(e)
		it.Aside = e.Type != jsonl.TypeModelChange && e.Type != jsonl.TypeThinkingLevelChange
	}
	return it, err
}

// Preview is a short one-line text of the item, for a list of entries.
func (it *Item) Preview() string {
	switch {
	case it.User != nil:
		return summaryLine(it.User.Text)
	case it.Turn != nil:
		return it.Turn.preview()
	case it.Result != nil:
		return "[" + it.Result.ToolName + " result]"
	case it.Bash != nil:
		return "[bash] " + summaryLine(it.Bash.Command)
	case it.System != nil:
		return "[system prompt]"
	case it.Custom != nil:
		return "[" + it.Custom.Type + "] " + summaryLine(it.Custom.Text+it.Custom.JSON)
	case it.Summary != nil && it.Summary.Compaction:
		return "[compaction] " + summaryLine(it.Summary.Text)
	case it.Summary != nil:
		return "[branch summary] " + summaryLine(it.Summary.Text)
	}
	return it.Setting
}

// preview is the turn's first text, else the names of its tool calls,
// after how it stopped when it did not end normally.
func (tn *Turn) preview() string {
	p := ""
	var names []string
	for _, b := range tn.Blocks {
		switch {
		case b.Kind == TextBlock && p == "":
			p = summaryLine(b.Text)
		case b.Kind == CallBlock:
			names = append(names, b.Call.Name)
		}
	}
	if p == "" && len(names) > 0 {
		p = "[" + strings.Join(names, ", ") + "]"
	}
	if tn.Stop != "" {
		p = "[" + tn.Stop + "] " + p
	}
	return p
}

// shortTime shows an ISO timestamp as "2006-01-02 15:04:05".
func shortTime(ts string) string {
	t, ok := jsonl.ParseTimestamp(ts)
	if !ok {
		return ts
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func (t *Transcript) message(it *Item, d *decoded) error {
	e := d.e
	if res, ok := t.paired[t.pos]; ok { // made when its call was read
		delete(t.paired, t.pos)
		it.Kind, it.Result, it.ShownWith = KindTool, res, t.within[e.ID]
		return nil
	}
	if d.msgErr != nil {
		return d.msgErr
	}
	msg := d.msg
	if msg.Role != jsonl.RoleAssistant {
		t.stats.add(msg, nil) // turn counts its message with the blocks it decodes
	}
	switch msg.Role {
	case jsonl.RoleUser:
		it.Kind, it.User = KindUser, &User{Text: d.text, Images: images(d.blocks)}
	case jsonl.RoleAssistant:
		return t.turn(it, d)
	case jsonl.RoleToolResult:
		res := t.newToolResult(d)
		it.Kind, it.Result = KindTool, res
		it.Tool = t.newToolCall(jsonl.Block{Name: msg.ToolName, ID: msg.ToolCallID})
		it.Tool.Result = res
	case jsonl.RoleBashExecution:
		it.Kind, it.Bash = KindBash, t.bash(msg)
	case jsonl.RoleSystem:
		it.Kind, it.Aside = KindSystem, true
		it.System = systemOf(e, t.leadingSystem(e))
	case jsonl.RoleCustom:
		t.custom(it, d, msg.CustomType, msg.Content, displayRaw(msg.Display), true)
	default:
		it.Kind, it.Setting, it.Aside = KindSetting, "message with role "+msg.Role, true
	}
	return nil
}

func displayRaw(d *bool) jsonl.RawMessage {
	if d != nil && !*d {
		return jsonl.RawMessage("false")
	}
	return nil
}

// turn makes an assistant message's item: its blocks, with each tool call
// given its result.
func (t *Transcript) turn(it *Item, d *decoded) error {
	msg, blocks := d.msg, d.blocks
	t.stats.add(msg, blocks)
	tn := &Turn{Provider: msg.Provider, Model: msg.Model, Error: msg.ErrorMessage}
	if msg.StopReason == "aborted" || msg.StopReason == "error" {
		tn.Stop = msg.StopReason
	}
	calls, next := map[string]bool{}, d.calls
	for _, b := range blocks {
		switch {
		case b.Type == jsonl.BlockText && strings.TrimSpace(b.Text) != "":
			tn.Blocks = append(tn.Blocks, Block{Kind: TextBlock, Text: b.Text})
		case b.Type == jsonl.BlockThinking && !t.opts.NoThinking && (b.Redacted || strings.TrimSpace(b.Thinking) != ""):
			tn.Blocks = append(tn.Blocks, Block{Kind: ThinkingBlock, Thinking: b.Thinking, Redacted: b.Redacted})
		case isToolCall(b):
			calls[b.ID] = true
			tn.Blocks = append(tn.Blocks, Block{Kind: CallBlock, Call: next[0]})
			next = next[1:]
		}
	}
	if err := t.pairResults(tn, calls); err != nil {
		return err
	}
	it.Kind, it.Turn = KindAssistant, tn
	return nil
}

// isToolCall reports whether a content block is a tool call: the one place
// the exporter decides it.
func isToolCall(b jsonl.Block) bool { return b.Type == jsonl.BlockToolCall }

// pairResults gives the turn's tool calls their results.
func (t *Transcript) pairResults(tn *Turn, calls map[string]bool) error {
	if len(calls) == 0 {
		return nil
	}
	found, err := t.results(calls)
	if err != nil {
		return err
	}
	for _, b := range tn.Blocks {
		if b.Call != nil {
			if b.Call.Result = found[b.Call.ID]; b.Call.Result != nil {
				t.stats.toolResults++
			}
		}
	}
	return nil
}

func (t *Transcript) bash(msg jsonl.Message) *Bash {
	b := &Bash{Command: msg.Command, Cancelled: msg.Cancelled, Excluded: msg.ExcludeFromContext}
	if msg.ExitCode != nil && *msg.ExitCode != 0 {
		b.Exit = itoa(*msg.ExitCode)
	}
	if !t.opts.NoToolOutput {
		b.Output = msg.Output
	}
	if msg.Truncated {
		b.Truncated = msg.FullOutputPath
	}
	return b
}

// custom makes the item of a custom message: content is d's, as recorded,
// and d.text and d.blocks its text and blocks.
func (t *Transcript) custom(it *Item, d *decoded, customType string, content, display jsonl.RawMessage, message bool) {
	text, blocks := d.text, d.blocks
	c := &Custom{Type: customType, Hidden: string(display) == "false", Text: text, Images: images(blocks), Raw: content, Message: message}
	if text == "" && blocks == nil && !jsonl.IsNull(content) {
		c.JSON = string(content) // neither a string nor blocks: show the JSON
	}
	t.stats.custom++
	it.Kind, it.Custom, it.Aside = KindCustom, c, c.Hidden
}

func (t *Transcript) summary(it *Item, e *jsonl.Entry) {
	s := &Summary{Text: e.Obj.String("summary")}
	details, _ := jsonl.ParseObject(e.Obj.Get("details"))
	s.Read, s.Modified = stringList(details.Get("readFiles")), stringList(details.Get("modifiedFiles"))
	if e.Type == jsonl.TypeCompaction {
		t.stats.compactions++
		s.Compaction = true
		s.Title = "Compaction: history before this point summarized from " + formatTokens(float64(jsonNumber(e.Obj.Get("tokensBefore")))) + " tokens"
		it.Kind = KindCompaction
	} else {
		t.stats.branchSummaries++
		s.Title = "Branch summary: the conversation came back from " + e.Ref()
		it.Kind = KindBranchSummary
	}
	it.Summary = s
}
func stringList(raw jsonl.RawMessage) []string {
	var out []string
	if raw != nil && jsonl.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}

// settingText is the one line shown for entries that are not messages.
func settingText(e *jsonl.Entry) string {
	o := e.Obj
	switch e.Type {
	case jsonl.TypeModelChange:
		return "Model: " + o.String("provider") + "/" + o.String("modelId")
	case jsonl.TypeThinkingLevelChange:
		return "Thinking level: " + o.String("thinkingLevel")
	case jsonl.TypeLabel:
		if l := o.String("label"); l != "" {
			return "Label “" + l + "” on " + e.Ref()
		}
		return "Label cleared on " + e.Ref()
	case jsonl.TypeSessionInfo:
		return "Session name: " + o.String("name")
	case jsonl.TypeContextEdit:
		if jsonl.IsNull(o.Get("replacement")) {
			return "Context edit: " + e.Ref() + " left out of the model's context"
		}
		return "Context edit: " + e.Ref() + " replaced in the model's context"
	case jsonl.TypeUsage:
		return usageText(o)
	case jsonl.TypeCustom:
		return "[" + o.String("customType") + "] " + clip(string(o.Get("data")), 200)
	}
	if e.Type != jsonl.TypeUnknown {
		return jsonl.EntryPreview(e) // a type with no wording of its own here
	}
	return "Entry of type " + e.TypeName()
}

func usageText(o jsonl.Object) string {
	var u jsonl.Usage
	_ = jsonl.Unmarshal(o.Get("usage"), &u)
	s := "Usage (" + o.String("kind") + "): " + o.String("provider") + "/" + o.String("model") +
		" ↑" + formatTokens(u.Input) + " ↓" + formatTokens(u.Output)
	if u.Cost != nil {
		s += fmt.Sprintf(" $%.4f", u.Cost.Total)
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
