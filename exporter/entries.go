package exporter

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pitool/pitool/jsonl"
)

// messageOf decodes the message of a message entry.
func messageOf(e *jsonl.Entry) (jsonl.Message, error) {
	var m jsonl.Message
	if err := jsonl.Unmarshal(e.Obj.Get("message"), &m); err != nil {
		return m, &jsonl.PosError{Line: e.Line, Offset: e.Offset, Err: fmt.Errorf("message: %w", err)}
	}
	return m, nil
}

// view turns one entry into what the page shows of it.
func (r *renderer) view(e *jsonl.Entry) (*entryView, error) {
	v := &entryView{ID: e.ID, Parent: e.ParentID(), Time: shortTime(e.Timestamp())}
	if shownIn, ok := r.within[v.Parent]; ok {
		v.Parent = shownIn // the page script walks up through the entries it has
	}
	if l, ok := r.ix.Label(e.N); ok {
		v.Label = r.labels[l]
	}
	if e.Parent != r.prev && r.opts.AllBranches && e.Parent >= 0 {
		v.BranchFrom = r.id(e.Parent)
	}
	v.OffPath = r.onPath != nil && !r.onPath[e.N]
	var err error
	switch e.Type {
	case jsonl.TypeMessage:
		err = r.messageView(v, e)
	case jsonl.TypeCustomMessage:
		r.customView(v, e.Obj.String("customType"), e.Obj.Get("content"), e.Obj.Get("display"))
	case jsonl.TypeBranchSummary, jsonl.TypeCompaction:
		r.summaryView(v, e)
	default:
		v.Kind, v.Setting = "setting", settingText(e)
		v.Summary = v.Setting
	}
	return v, err
}

// shortTime shows an ISO timestamp as "2006-01-02 15:04:05".
func shortTime(ts string) string {
	t, ok := jsonl.ParseTimestamp(ts)
	if !ok {
		return ts
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func (r *renderer) messageView(v *entryView, e *jsonl.Entry) error {
	msg, err := messageOf(e)
	if err != nil {
		return err
	}
	if msg.Role != jsonl.RoleAssistant {
		r.stats.add(msg, nil) // assistantView counts its message with the blocks it decodes
	}
	switch msg.Role {
	case jsonl.RoleUser:
		text, blocks := contentOf(msg.Content)
		v.Kind, v.Summary = "user", summaryLine(text)
		v.User = &userView{Text: r.markdown(text), Images: images(blocks)}
	case jsonl.RoleAssistant:
		return r.assistantView(v, msg)
	case jsonl.RoleToolResult:
		v.Kind, v.Summary = "tool", "["+msg.ToolName+" result]"
		v.Tool = r.renderTool(jsonl.Block{Name: msg.ToolName, ID: msg.ToolCallID}, newToolResult(e.ID, msg))
		v.Tool.ResultID = ""
	case jsonl.RoleBashExecution:
		v.Kind, v.Summary = "bash", "[bash] "+summaryLine(msg.Command)
		v.Bash = r.bashView(msg)
	case jsonl.RoleSystem:
		v.Kind, v.Summary = "system", "[system prompt]"
		v.System = r.systemView(e, r.leadingSystem(e))
	case jsonl.RoleCustom:
		r.customView(v, msg.CustomType, msg.Content, displayRaw(msg.Display))
	default:
		v.Kind, v.Setting = "setting", "message with role "+msg.Role
		v.Summary = v.Setting
	}
	return nil
}

func displayRaw(d *bool) jsonl.RawMessage {
	if d != nil && !*d {
		return jsonl.RawMessage("false")
	}
	return nil
}

func (r *renderer) assistantView(v *entryView, msg jsonl.Message) error {
	_, blocks := contentOf(msg.Content)
	r.stats.add(msg, blocks)
	a := &assistantView{Model: msg.Model, Error: msg.ErrorMessage}
	if msg.Provider != "" && msg.Model != "" {
		a.Model = msg.Provider + "/" + msg.Model
	}
	if msg.StopReason == "aborted" || msg.StopReason == "error" {
		a.Stop = msg.StopReason
		if a.Error == "" {
			a.Error = "unknown error"
		}
	}
	calls := map[string]bool{}
	var names []string
	for _, b := range blocks {
		switch {
		case b.Type == "text" && strings.TrimSpace(b.Text) != "":
			a.Blocks = append(a.Blocks, blockView{Text: r.markdown(b.Text)})
			if v.Summary == "" {
				v.Summary = summaryLine(b.Text)
			}
		case b.Type == "thinking" && !r.opts.NoThinking && (b.Redacted || strings.TrimSpace(b.Thinking) != ""):
			a.Blocks = append(a.Blocks, blockView{Thinking: b.Thinking, Redacted: b.Redacted})
		case b.Type == "toolCall":
			calls[b.ID] = true
			names = append(names, b.Name)
		}
	}
	if err := r.toolCalls(a, blocks, calls); err != nil {
		return err
	}
	if v.Summary == "" && len(names) > 0 {
		v.Summary = "[" + strings.Join(names, ", ") + "]"
	}
	if a.Stop != "" {
		v.Summary = "[" + a.Stop + "] " + v.Summary
	}
	v.Kind, v.Assistant = "assistant", a
	return nil
}

func (r *renderer) toolCalls(a *assistantView, blocks []jsonl.Block, calls map[string]bool) error {
	if len(calls) == 0 {
		return nil
	}
	found, err := r.results(calls)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		if b.Type == "toolCall" {
			if res := found[b.ID]; res != nil {
				r.stats.add(res.Msg, nil)
			}
			a.Tools = append(a.Tools, r.renderTool(b, found[b.ID]))
		}
	}
	return nil
}

func (r *renderer) bashView(msg jsonl.Message) *bashView {
	b := &bashView{Command: msg.Command, Cancelled: msg.Cancelled, Excluded: msg.ExcludeFromContext}
	if msg.ExitCode != nil && *msg.ExitCode != 0 {
		b.Exit = itoa(*msg.ExitCode)
	}
	if msg.Output != "" && !r.opts.NoToolOutput {
		b.Output = r.code.newOutput(msg.Output, 10, "")
	}
	if msg.Truncated {
		b.Truncated = msg.FullOutputPath
	}
	return b
}

func (r *renderer) customView(v *entryView, customType string, content, display jsonl.RawMessage) {
	text, blocks := contentOf(content)
	if text == "" && blocks == nil && !jsonl.IsNull(content) {
		text = string(content) // neither a string nor blocks: show the JSON
	}
	r.stats.custom++
	v.Kind, v.Summary = "custom", "["+customType+"] "+summaryLine(text)
	v.Custom = &customView{Type: customType, Hidden: string(display) == "false", Body: r.markdown(text), Images: images(blocks)}
}

func (r *renderer) summaryView(v *entryView, e *jsonl.Entry) {
	s := &summaryView{Body: r.markdown(e.Obj.String("summary"))}
	details, _ := jsonl.ParseObject(e.Obj.Get("details"))
	s.Read, s.Modified = stringList(details.Get("readFiles")), stringList(details.Get("modifiedFiles"))
	if e.Type == jsonl.TypeCompaction {
		r.stats.compactions++
		s.Title = "Compaction: history before this point summarized from " + formatTokens(float64(jsonNumber(e.Obj.Get("tokensBefore")))) + " tokens"
		v.Kind, v.Summary = "compaction", "[compaction] "+summaryLine(e.Obj.String("summary"))
	} else {
		r.stats.branchSummaries++
		s.Title = "Branch summary: the conversation came back from " + e.Obj.String("fromId")
		v.Kind, v.Summary = "summary", "[branch summary] "+summaryLine(e.Obj.String("summary"))
	}
	v.Sum = s
}

func stringList(raw jsonl.RawMessage) []string {
	var out []string
	if raw != nil && json.Unmarshal(raw, &out) != nil {
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
			return "Label “" + l + "” on " + o.String("targetId")
		}
		return "Label cleared on " + o.String("targetId")
	case jsonl.TypeSessionInfo:
		return "Session name: " + o.String("name")
	case jsonl.TypeContextEdit:
		if jsonl.IsNull(o.Get("replacement")) {
			return "Context edit: " + o.String("targetId") + " left out of the model's context"
		}
		return "Context edit: " + o.String("targetId") + " replaced in the model's context"
	case jsonl.TypeUsage:
		return usageText(o)
	case jsonl.TypeCustom:
		return "[" + o.String("customType") + "] " + clip(string(o.Get("data")), 200)
	}
	return "Entry of type " + e.TypeName()
}

func usageText(o jsonl.Object) string {
	var u jsonl.Usage
	_ = json.Unmarshal(o.Get("usage"), &u)
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
