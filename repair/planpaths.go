package repair

import (
	"github.com/pitool/pitool/jsonl"
)

// interruptedText is the result repair --close-tool-calls gives a call that
// never got one.
const interruptedText = "The run was interrupted before this tool call returned a result (closed by pitool repair --close-tool-calls)."

// planPaths fixes what is wrong along branches of the relinked tree: tool
// results without their call go to the quarantine, a mismatched toolName
// takes its call's name, a compaction whose firstKeptEntryId is missing or
// off its branch becomes retain-none, and with CloseToolCalls unanswered
// calls get error results.
func (pl *plan) planPaths() error {
	issues := checkPaths(pl.a.m, pl.relink(), pl.keptOf)
	if pl.dropOrphans(issues) {
		issues = checkPaths(pl.a.m, pl.relink(), pl.keptOf)
	}
	for _, is := range issues {
		if err := pl.planIssue(is); err != nil {
			return err
		}
	}
	return nil
}

// relink indexes the tree the plan has made so far: newID, parent and ref,
// the removed objects being no nodes.
func (pl *plan) relink() *jsonl.Index {
	b := jsonl.NewIndexBuilder(pl.a.m.name, jsonl.IndexOptions{})
	for i := range pl.a.m.n {
		e := pl.a.m.at(i)
		f := jsonl.EntryFacts{Line: e.line, Offset: e.off, Type: e.typ, Role: e.role, ID: pl.newID[i], HasID: true,
			Ref: pl.ref[i], HasRef: e.hasRef || pl.ref[i] != "", Parsed: -1, NotNode: pl.removed[i]}
		if p := pl.parent[i]; p >= 0 {
			f.Parent, f.ParentID = jsonl.ParentNamed, pl.newID[p]
		}
		b.Add(&f)
	}
	pl.relinked = b.Index()
	return pl.relinked
}

func (pl *plan) keptOf(i int) (int, bool) {
	e := pl.a.m.at(i)
	if pl.ref[i] == "" && !e.hasRef {
		return 0, false
	}
	if pl.ref[i] == pl.newID[i] {
		return i, true
	}
	return pl.relinked.Ref(i)
}

// dropOrphans moves tool results whose call is on no branch above them to
// the quarantine; their children hang from the result's parent instead.
func (pl *plan) dropOrphans(issues []issue) bool {
	any := false
	for _, is := range issues {
		if is.kind != issueOrphan {
			continue
		}
		e := pl.a.m.at(is.at)
		pl.removed[is.at], pl.ch(is.at).drop, any = true, dropQuarantine, true
		pl.fix("tools.orphan-result", e.line, "moved tool result %s to the quarantine: the call %s it answers is lost", pl.newID[is.at], pl.a.m.resultText(is.at).id)
	}
	if any {
		pl.reparentRemoved()
	}
	return any
}

func (pl *plan) reparentRemoved() {
	for i, p := range pl.parent {
		if pl.removed[i] || p < 0 || !pl.removed[p] {
			continue
		}
		for p >= 0 && pl.removed[p] {
			p = pl.parent[p]
		}
		pl.parent[i] = p
		val := []byte("null")
		if p >= 0 {
			val = jsonl.QuoteString(pl.newID[p])
		}
		pl.set(i, "parentId", val)
	}
}

func (pl *plan) planIssue(is issue) error {
	e := pl.a.m.at(is.at)
	switch is.kind {
	case issueNameMismatch:
		name := callName(pl.a.m, is.other, e.callHash)
		pl.ch(is.at).tool = name
		pl.fix("tools.name-mismatch", e.line, "set the toolName of result %s from %q to %q, its call's", pl.newID[is.at], pl.a.m.resultText(is.at).name, name)
	case issueKeptMissing, issueKeptOffPath:
		pl.ref[is.at] = pl.newID[is.at]
		pl.set(is.at, jsonl.RefFirstKept.String(), jsonl.QuoteString(pl.newID[is.at]))
		code := map[issueKind]string{issueKeptMissing: "compaction.first-kept-missing", issueKeptOffPath: "compaction.first-kept-off-path"}[is.kind]
		pl.fix(code, e.line, "compaction %s kept history from %s, which is not on its branch; made it retain-none (firstKeptEntryId = its own id), which is what Pi already showed", pl.newID[is.at], clip([]byte(e.ref)))
	case issueUnanswered, issueUnansweredEnd:
		if pl.opts.CloseToolCalls {
			return pl.closeCalls(is)
		}
	}
	return nil
}

// closeCalls answers the open calls of is.at with error results: after the
// branch's leaf, or before the entry that starts the next turn (which then
// hangs from the last result).
func (pl *plan) closeCalls(is issue) error {
	from := is.other
	if is.kind == issueUnanswered {
		from = pl.parent[is.other]
	}
	ts, err := pl.timestampOf(from)
	if err != nil {
		return err
	}
	var lines [][]byte
	prev := pl.newID[from]
	a, texts := pl.a.m.at(is.at), pl.a.m.toolTexts(is.at)
	for _, k := range is.calls {
		id := pl.freshID(a.line*1000 + k)
		var t toolText
		if k < len(texts) {
			t = texts[k]
		}
		lines = append(lines, resultLine(id, prev, ts, t))
		prev = id
	}
	code := "tools.unanswered-at-end"
	if is.kind == issueUnanswered {
		code = "tools.unanswered"
		c := pl.ch(is.other)
		c.before = append(c.before, lines...)
		c.set.Set("parentId", jsonl.QuoteString(prev))
	} else {
		c := pl.ch(is.other)
		c.after = append(c.after, lines...)
	}
	pl.fix(code, a.line, "answered %s with an error result saying the run was interrupted", callList(pl.a.m, is.at, is.calls))
	return nil
}

// timestampOf is entry i's timestamp, for the results hung from it; the
// epoch when it has none that parses.
func (pl *plan) timestampOf(i int) (jsonl.RawMessage, error) {
	obj, err := pl.readObject(i)
	if err != nil {
		return nil, err
	}
	ts := obj.Get("timestamp")
	if s, ok := jsonl.DecodeString(ts); !ok || !validTimestamp(s) {
		return jsonl.QuoteString("1970-01-01T00:00:00.000Z"), nil
	}
	return ts, nil
}

// resultLine is a toolResult entry in the form Pi writes.
func resultLine(id, parent string, ts jsonl.RawMessage, c toolText) []byte {
	msg := jsonl.ObjectOf("role", jsonl.QuoteString(jsonl.RoleToolResult), "toolCallId", jsonl.QuoteString(c.id),
		"toolName", jsonl.QuoteString(c.name), "content", jsonl.TextContent(interruptedText), "isError", []byte("true"), "timestamp", jsonl.JSTimeMillis(ts))
	obj := jsonl.ObjectOf("type", jsonl.QuoteString(jsonl.TypeMessage.String()), "id", jsonl.QuoteString(id),
		"parentId", jsonl.QuoteString(parent), "timestamp", ts, "message", msg.AppendJSON(nil))
	return obj.AppendJSON(nil)
}
