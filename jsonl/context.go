package jsonl

// Model names the provider and model the context was last set to.
type Model struct {
	Provider RawMessage // nil when undefined
	ModelID  RawMessage
}

// Context is what Pi's buildSessionContext returns: the model-visible messages
// at a leaf, with the thinking level and model in force there.
type Context struct {
	Messages      []Object
	ThinkingLevel RawMessage // a JSON string, "off" by default; nil after a change without one (no key printed)
	Model         *Model     // nil when no model was ever set
}

// ProjectedEntry is one selected entry and the messages it contributes.
type ProjectedEntry struct {
	Entry    *Entry
	Messages []Object
}

// Projection is Pi's buildSessionProjection: the compaction-aware entry
// selection at a leaf, each entry projected into messages.
type Projection struct {
	Entries []ProjectedEntry
	Context
}

// ProjectLeaf walks to a leaf, decodes its path and projects it.
func (ix *Index) ProjectLeaf(leaf int) (*Projection, error) {
	path, err := ix.Path(leaf)
	if err != nil {
		return nil, err
	}
	entries, err := ix.DecodePath(path)
	if err != nil {
		return nil, err
	}
	return Project(entries)
}

// Project builds the projection of a decoded root-to-leaf path.
func Project(path []*Entry) (*Projection, error) {
	p := &Projection{}
	p.ThinkingLevel, p.Model = contextSettings(path)
	selected := SelectContextEntries(path)
	edits := latestEdits(selected)
	for k, e := range selected {
		var msgs []Object
		if !(e.Type == TypeCompaction && k > 0) {
			var err error
			if msgs, err = projectEntry(e, edits[e.ID]); err != nil {
				return nil, err
			}
		}
		p.Entries = append(p.Entries, ProjectedEntry{Entry: e, Messages: msgs})
		p.Messages = append(p.Messages, msgs...)
	}
	return p, nil
}

// contextSettings replays thinking-level and model changes over the whole path.
func contextSettings(path []*Entry) (RawMessage, *Model) {
	level := QuoteString("off")
	var model *Model
	for _, e := range path {
		switch e.Type {
		case TypeThinkingLevelChange:
			level = e.Obj.Get("thinkingLevel")
		case TypeModelChange:
			model = &Model{Provider: e.Obj.Get("provider"), ModelID: e.Obj.Get("modelId")}
		case TypeMessage:
			if msg, err := e.Message(); err == nil && msg.String("role") == RoleAssistant {
				model = &Model{Provider: msg.Get("provider"), ModelID: msg.Get("model")}
			}
		}
	}
	return level, model
}

// SelectContextEntries is Pi's buildContextEntries: with a compaction on the
// path, the latest compaction, then the kept entries before it from
// firstKeptEntryId on (system messages skipped), then everything after it.
func SelectContextEntries(path []*Entry) []*Entry {
	c := -1
	for k, e := range path {
		if e.Type == TypeCompaction {
			c = k
		}
	}
	if c < 0 {
		return path
	}
	firstKept := path[c].Ref()
	out := []*Entry{path[c]}
	found := false
	for _, e := range path[:c] {
		if e.ID == firstKept {
			found = true
		}
		if found && !isSystemMessageEntry(e) {
			out = append(out, e)
		}
	}
	return append(out, path[c+1:]...)
}

func isSystemMessageEntry(e *Entry) bool {
	if e.Type != TypeMessage {
		return false
	}
	msg, err := e.Message()
	return err == nil && msg.String("role") == RoleSystem
}

func latestEdits(entries []*Entry) map[string]*Entry {
	edits := map[string]*Entry{}
	for _, e := range entries {
		if e.Type == TypeContextEdit {
			edits[e.Ref()] = e
		}
	}
	return edits
}

// projectEntry is Pi's projectContextEntry: the entry's messages with its latest
// context edit applied.
func projectEntry(e *Entry, edit *Entry) ([]Object, error) {
	if edit == nil {
		return projectWithReplacement(e, nil, false)
	}
	return projectWithReplacement(e, edit.Obj.Get("replacement"), true)
}

// projectWithReplacement projects an entry and, when it has an edit, applies
// the edit's replacement (null drops the entry's messages).
func projectWithReplacement(e *Entry, replacement RawMessage, edited bool) ([]Object, error) {
	msgs, err := EntryMessages(e)
	if err != nil || !edited || replacement == nil {
		return msgs, err
	}
	if IsNull(replacement) {
		return nil, nil
	}
	rep, err := ParseObject(replacement)
	if err != nil {
		return msgs, nil
	}
	for k, m := range msgs {
		msgs[k] = applyReplacement(m, rep.Get("content"))
	}
	return msgs, nil
}

func applyReplacement(m Object, content RawMessage) Object {
	role := m.String("role")
	switch role {
	case RoleUser, RoleAssistant, RoleToolResult, RoleCustom:
	default:
		return m
	}
	if s, isString := DecodeString(content); isString && (role == RoleAssistant || role == RoleToolResult) {
		content = TextContent(s)
	}
	m = m.Clone()
	m.Set("content", content)
	return m
}

// messageMessages is the message of a message entry, a null content made
// Pi's default.
func messageMessages(e *Entry) ([]Object, error) {
	msg, err := e.Message()
	if err != nil {
		return nil, err
	}
	return []Object{withContentDefault(msg)}, nil
}

// branchSummaryMessages is the summary of a branch_summary entry, none when
// the summary is empty.
func branchSummaryMessages(e *Entry) ([]Object, error) {
	if !Truthy(e.Obj.Get("summary")) {
		return nil, nil
	}
	return []Object{ObjectOf("role", QuoteString(RoleBranchSummary), "summary", e.Obj.Get("summary"),
		RefFrom.String(), e.Obj.Get(RefFrom.String()), "timestamp", JSTimeMillis(e.Obj.Get("timestamp")))}, nil
}

func withContentDefault(msg Object) Object {
	if !IsNull(msg.Get("content")) {
		return msg
	}
	switch msg.String("role") {
	case RoleSystem:
		msg = msg.Clone()
		msg.Set("content", RawMessage(`""`))
	case RoleUser, RoleAssistant, RoleToolResult:
		msg = msg.Clone()
		msg.Set("content", RawMessage(`[]`))
	}
	return msg
}

// customMessages is a custom_message entry as a message of role custom.
func customMessages(e *Entry) ([]Object, error) {
	content := e.Obj.Get("content")
	if IsNull(content) {
		content = RawMessage(`[]`)
	}
	return []Object{ObjectOf("role", QuoteString(RoleCustom), "customType", e.Obj.Get("customType"), "content", content,
		"display", e.Obj.Get("display"), "details", e.Obj.Get("details"), "timestamp", JSTimeMillis(e.Obj.Get("timestamp")))}, nil
}

func compactionMessages(e *Entry) ([]Object, error) {
	summary := ObjectOf("role", QuoteString(RoleCompactionSummary), "summary", e.Obj.Get("summary"),
		"tokensBefore", e.Obj.Get("tokensBefore"), "timestamp", JSTimeMillis(e.Obj.Get("timestamp")))
	sys := e.Obj.Get("systemMessage")
	if !Truthy(sys) {
		return []Object{summary}, nil
	}
	sm, err := ParseObject(sys)
	if err != nil {
		return nil, &PosError{Line: e.Line, Offset: e.Offset, Err: err}
	}
	return []Object{sm, summary}, nil
}

// AppendJSON writes the context as pi-ref context prints it.
func (c *Context) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"messages":`...)
	dst = AppendObjects(dst, c.Messages)
	if c.ThinkingLevel != nil { // a change without "thinkingLevel" leaves it undefined: JSON.stringify drops the key
		dst = append(dst, `,"thinkingLevel":`...)
		dst = append(dst, c.ThinkingLevel...)
	}
	dst = append(dst, `,"model":`...)
	if c.Model == nil {
		dst = append(dst, "null"...)
	} else {
		dst = ObjectOf("provider", c.Model.Provider, "modelId", c.Model.ModelID).AppendJSON(dst)
	}
	return append(dst, '}')
}

// AppendObjects writes objects as a JSON array.
func AppendObjects(dst []byte, objs []Object) []byte {
	dst = append(dst, '[')
	for i, o := range objs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = o.AppendJSON(dst)
	}
	return append(dst, ']')
}
