package exporter

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// toolLookahead bounds how far past an assistant message the renderer looks
// for the results of its tool calls.
const toolLookahead = 64

// renderer walks the entries to show, in order, and turns each into a view.
type renderer struct {
	ix     *jsonl.Index
	opts   HTMLOptions
	md     markdowns            // renderers for the goroutines that write entries
	code   budget               // code highlighting left, spent in page order
	seq    []int                // entries in page order
	pos    int                  // current position in seq
	ahead  map[int]*jsonl.Entry // entries decoded early, by position in seq
	used   map[int]bool         // positions shown with an earlier entry
	prev   int                  // the entry shown last
	onPath []bool               // the branch shown first (--all-branches)
	system []bool               // entry has a system message on its path (itself included)
	labels map[int]string       // label entry → its text
	within map[string]string    // tool result id → the entry that shows it
	name   string               // the session's name (latest session_info)
	header jsonl.Header         // the header shown (redacted when asked)
	stats  stats
}

func newRenderer(ix *jsonl.Index, opts HTMLOptions) (*renderer, error) {
	r := &renderer{ix: ix, opts: opts, code: budget{left: highlightBudget}, md: newMarkdowns(pageWorkers), ahead: map[int]*jsonl.Entry{}, used: map[int]bool{},
		prev: jsonl.None, system: make([]bool, ix.Len()), labels: map[int]string{}, within: map[string]string{}}
	leaf, err := ix.ResolveLeaf(opts.Leaf)
	if err != nil {
		return nil, err
	}
	path, err := ix.Path(leaf)
	if err != nil {
		return nil, err
	}
	r.seq = path
	if opts.AllBranches {
		r.onPath = make([]bool, ix.Len())
		for _, i := range path {
			r.onPath[i] = true
		}
		r.seq = treeOrder(ix)
	}
	if err := r.redactHeader(); err != nil {
		return nil, err
	}
	return r, r.scanSmallEntries()
}

// redactHeader keeps the header to show, passed through Redact when set.
func (r *renderer) redactHeader() error {
	r.header = r.ix.Header
	if r.opts.Redact == nil || !r.ix.HasHeader {
		return nil
	}
	h := r.header
	line, err := r.opts.Redact(jsonl.AppendHeader(nil, jsonl.Header{ID: h.ID, Cwd: h.Cwd, ParentSession: h.ParentSession}))
	if err != nil {
		return &jsonl.PosError{File: r.ix.Name, Line: r.ix.HeaderLine, Err: err}
	}
	o, err := jsonl.ParseObject(line)
	if err != nil {
		return &jsonl.PosError{File: r.ix.Name, Line: r.ix.HeaderLine, Err: err}
	}
	r.header.ID, r.header.Cwd, r.header.ParentSession = o.String("id"), o.String("cwd"), o.String("parentSession")
	return nil
}

// treeOrder lists every entry depth first, children in file order, so that a
// branch reads from its fork point down. Entries no root reaches (a parent
// cycle, possible with duplicate ids) follow, in file order.
func treeOrder(ix *jsonl.Index) []int {
	children, roots := ix.Children()
	order := make([]int, 0, ix.Len())
	seen := make([]bool, ix.Len())
	var stack []int32
	visit := func(starts ...int32) {
		for k := len(starts) - 1; k >= 0; k-- {
			stack = append(stack, starts[k])
		}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[n] {
				continue
			}
			seen[n] = true
			order = append(order, int(n))
			for k := len(children[n]) - 1; k >= 0; k-- {
				stack = append(stack, children[n][k])
			}
		}
	}
	visit(roots...)
	for i := range seen {
		if !seen[i] {
			visit(int32(i))
		}
	}
	return order
}

// scanSmallEntries decodes, up front, the session's name (the latest
// session_info) and the labels of the entries shown: the page head and every
// labeled entry need them, and decoding only these keeps the start short.
func (r *renderer) scanSmallEntries() error {
	for i := r.ix.Len() - 1; i >= 0; i-- {
		if r.ix.Type(i) == jsonl.TypeSessionInfo {
			e, err := r.decode(i)
			if err != nil {
				return err
			}
			r.name = e.Obj.String("name")
			break
		}
	}
	return r.scanLabels()
}

// scanLabels decodes the label entries of the entries shown, in file order.
func (r *renderer) scanLabels() error {
	var ls []int
	for _, i := range r.seq {
		if l, ok := r.ix.Label(i); ok {
			ls = append(ls, l)
		}
	}
	slices.Sort(ls)
	for _, l := range slices.Compact(ls) {
		e, err := r.decode(l)
		if err != nil {
			return err
		}
		r.labels[l] = e.Obj.String("label")
	}
	return nil
}

// decode reads entry i, redacted when asked.
func (r *renderer) decode(i int) (*jsonl.Entry, error) {
	e, err := r.ix.Decode(i)
	if err != nil || r.opts.Redact == nil {
		return e, err
	}
	line, err := r.opts.Redact(e.Obj.AppendJSON(nil))
	if err != nil {
		return nil, &jsonl.PosError{File: r.ix.Name, Line: e.Line, Offset: e.Offset, Err: err}
	}
	obj, err := jsonl.ParseObject(line)
	if err != nil {
		return nil, &jsonl.PosError{File: r.ix.Name, Line: e.Line, Offset: e.Offset, Err: err}
	}
	e.Obj, e.ID = obj, obj.String("id")
	return e, nil
}

// id returns entry i's id as the page shows it: redacted when asked, as
// it is in the entry itself (a placeholder depends on the value alone).
func (r *renderer) id(i int) string {
	id := r.ix.ID(i)
	if r.opts.Redact == nil {
		return id
	}
	line, err := r.opts.Redact(jsonl.QuoteString(id))
	if err != nil {
		return "[REDACTED]"
	}
	var out string
	if json.Unmarshal(line, &out) != nil {
		return "[REDACTED]"
	}
	return out
}

// at returns the entry at position k of the sequence.
func (r *renderer) at(k int) (*jsonl.Entry, error) {
	if e, ok := r.ahead[k]; ok {
		delete(r.ahead, k)
		return e, nil
	}
	return r.decode(r.seq[k])
}

// peek decodes position k ahead of time and keeps it for at.
func (r *renderer) peek(k int) (*jsonl.Entry, error) {
	if e, ok := r.ahead[k]; ok {
		return e, nil
	}
	e, err := r.decode(r.seq[k])
	if err == nil {
		r.ahead[k] = e
	}
	return e, err
}

// noteSystemState records whether a system prompt was set on the path to e:
// a system message, or a compaction that carries one.
func (r *renderer) noteSystemState(e *jsonl.Entry) {
	carries := e.Type == jsonl.TypeCompaction && e.Obj.Has("systemMessage")
	if e.Type == jsonl.TypeMessage {
		msg, _ := e.Message()
		carries = msg.String("role") == jsonl.RoleSystem
	}
	r.system[e.N] = carries || (e.Parent >= 0 && r.system[e.Parent])
}

// leadingSystem reports whether e starts the system prompt on its branch.
func (r *renderer) leadingSystem(e *jsonl.Entry) bool {
	return e.Parent < 0 || !r.system[e.Parent]
}

// results finds the tool results of calls in the entries that follow, and
// marks them as shown.
func (r *renderer) results(calls map[string]bool) (map[string]*toolResult, error) {
	found := map[string]*toolResult{}
	for k := r.pos + 1; k < len(r.seq) && k <= r.pos+toolLookahead && len(found) < len(calls); k++ {
		e, err := r.peek(k)
		if err != nil {
			return nil, err
		}
		if e.Type != jsonl.TypeMessage {
			continue
		}
		msg, err := messageOf(e)
		if err != nil {
			return nil, err
		}
		if msg.Role != jsonl.RoleToolResult {
			break
		}
		if calls[msg.ToolCallID] && found[msg.ToolCallID] == nil {
			found[msg.ToolCallID] = newToolResult(e.ID, msg)
			r.used[k] = true
			r.within[e.ID] = r.id(r.seq[r.pos])
		}
	}
	return found, nil
}

// markdown defers rendering text to the entry markup, deciding now whether
// its fenced code may be highlighted.
func (r *renderer) markdown(text string) markdownText {
	n := fencedBytes(text)
	return markdownText{ms: r.md, text: text, highlight: n > 0 && r.code.take(n)}
}

// fencedBytes counts the bytes of the lines inside ``` or ~~~ fences.
func fencedBytes(text string) int {
	n, fence := 0, ""
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
		case fence != "" && strings.HasPrefix(t, fence):
			fence = ""
		case fence != "":
			n += len(line)
		}
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
