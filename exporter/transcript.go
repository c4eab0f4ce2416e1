package exporter

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// Transcript is what an export shows of a session, decided once for every
// format: which entries show, what each shows, which tool results go with
// which calls, and the one-line previews and labels. HTML and Markdown only
// format its items. Items are made one at a time as the entries are read, so
// memory stays bounded by the index plus a few entries.
type Transcript struct {
	Head   Head // the session facts shown above the entries
	ix     *jsonl.Index
	opts   HTMLOptions
	seq    []int               // entries in page order
	pos    int                 // current position in seq
	feed   *decodeStream       // the entries of seq, decoded ahead (during Each)
	ahead  map[int]*decoded    // entries taken from feed before their turn, by position in seq
	paired map[int]*ToolResult // positions of results shown with an earlier call
	prev   int                 // the entry shown last
	onPath []bool              // the branch shown first (AllBranches)
	system []bool              // entry has a system message on its path (itself included)
	labels map[int]string      // label entry → its text
	within map[string]string   // tool result id → the entry that shows it
	header jsonl.Header        // the header shown (redacted when asked)
	stats  stats
}

// Head is what an export shows above the entries.
type Head struct {
	Title                string
	SessionID, Date, Cwd string
	ParentSession        string
	Shown                string // which entries are shown: "the branch to … (n of m entries)"
	Notes                string // what the export left out or rewrote: "secrets redacted, …"
	AllBranches          bool
}

// toolLookahead bounds how far past an assistant message the transcript
// looks for the results of its tool calls.
const toolLookahead = 64

// NewTranscript selects the entries to show: opts.Leaf's branch (or the
// active one), or with AllBranches the whole tree, depth first.
func NewTranscript(ix *jsonl.Index, opts HTMLOptions) (*Transcript, error) {
	t := &Transcript{ix: ix, opts: opts, ahead: map[int]*decoded{}, paired: map[int]*ToolResult{},
		prev: jsonl.None, system: make([]bool, ix.Len()), labels: map[int]string{}, within: map[string]string{}}
	leaf, err := ix.ResolveLeaf(opts.Leaf)
	if err != nil {
		return nil, err
	}
	path, err := ix.Path(leaf)
	if err != nil {
		return nil, err
	}
	t.seq = path
	if opts.AllBranches {
		t.onPath = make([]bool, ix.Len())
		for _, i := range path {
			t.onPath[i] = true
		}
		t.seq = treeOrder(ix)
	}
	if err := t.redactHeader(); err != nil {
		return nil, err
	}
	name, err := t.scanSmallEntries()
	if err != nil {
		return nil, err
	}
	t.Head = t.head(name)
	return t, nil
}

// Each makes the item of every entry shown, in page order, and passes it to
// yield until yield returns false. A tool result shown with its call comes
// again at its own place, with ShownWith set: a nested format skips it, a
// linear one shows it there. Each reads the entries once: call it once.
func (t *Transcript) Each(ctx context.Context, yield func(*Item) bool) error {
	t.feed = t.startDecoding(ctx)
	defer t.feed.stop()
	for t.pos = 0; t.pos < len(t.seq); t.pos++ {
		if t.pos%cancelEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		d, err := t.at(t.pos)
		if err != nil {
			return err
		}
		it, err := t.item(d)
		if err != nil {
			return err
		}
		t.noteSystemState(d.e, it)
		t.prev = d.e.N
		if !yield(it) {
			return nil
		}
	}
	return nil
}

// redactHeader keeps the header to show, passed through Redact when set.
func (t *Transcript) redactHeader() error {
	t.header = t.ix.Header
	if t.opts.Redact == nil || !t.ix.HasHeader {
		return nil
	}
	h := t.header
	line, err := t.opts.Redact(jsonl.AppendHeader(nil, jsonl.Header{ID: h.ID, Cwd: h.Cwd, ParentSession: h.ParentSession}))
	if err != nil {
		return &jsonl.PosError{File: t.ix.Name, Line: t.ix.HeaderLine, Err: err}
	}
	o, err := jsonl.ParseObject(line)
	if err != nil {
		return &jsonl.PosError{File: t.ix.Name, Line: t.ix.HeaderLine, Err: err}
	}
	t.header.ID, t.header.Cwd, t.header.ParentSession = o.String("id"), o.String("cwd"), o.String("parentSession")
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
// session_info) and the labels of the entries shown: the head and every
// labeled entry need them, and decoding only these keeps the start short.
func (t *Transcript) scanSmallEntries() (string, error) {
	name := ""
	for i := t.ix.Len() - 1; i >= 0; i-- {
		if t.ix.Type(i) == jsonl.TypeSessionInfo {
			e, err := t.decode(i)
			if err != nil {
				return "", err
			}
			name = e.Obj.String("name")
			break
		}
	}
	return name, t.scanLabels()
}

// scanLabels decodes the label entries of the entries shown, in file order.
func (t *Transcript) scanLabels() error {
	var ls []int
	for _, i := range t.seq {
		if l, ok := t.ix.Label(i); ok {
			ls = append(ls, l)
		}
	}
	slices.Sort(ls)
	for _, l := range slices.Compact(ls) {
		e, err := t.decode(l)
		if err != nil {
			return err
		}
		t.labels[l] = e.Obj.String("label")
	}
	return nil
}

// head is what is shown above the entries.
func (t *Transcript) head(name string) Head {
	h := Head{Title: t.title(name), SessionID: t.header.ID, Cwd: t.header.Cwd, ParentSession: t.header.ParentSession,
		Shown: t.shown(), Notes: t.notes(), AllBranches: t.opts.AllBranches}
	if ts, ok := jsonl.ParseTimestamp(t.header.Timestamp); ok {
		h.Date = ts.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return h
}

func (t *Transcript) title(name string) string {
	switch {
	case t.opts.Title != "":
		return t.opts.Title
	case name != "":
		return name
	case t.header.ID != "":
		return "Session " + t.header.ID
	}
	return "Pi session"
}

func (t *Transcript) shown() string {
	if t.opts.AllBranches {
		return fmt.Sprintf("all %s, %s", textout.Count(len(t.seq), "entry"), textout.Count(t.ix.LeafCount(), "branch"))
	}
	if len(t.seq) == 0 {
		return "no entries"
	}
	return fmt.Sprintf("the branch to %s (%s of %s)", t.id(t.seq[len(t.seq)-1]), textout.Int(int64(len(t.seq))), textout.Count(t.ix.Len(), "entry"))
}

func (t *Transcript) notes() string {
	var n []string
	if t.opts.Redact != nil {
		n = append(n, "secrets redacted")
	}
	if t.opts.NoThinking {
		n = append(n, "thinking left out")
	}
	if t.opts.NoToolOutput {
		n = append(n, "tool output left out")
	}
	return strings.Join(n, ", ")
}

// decode reads entry i, redacted when asked.
func (t *Transcript) decode(i int) (*jsonl.Entry, error) {
	e, err := t.ix.DecodeOuter(i) // messageOf decodes the message
	if err != nil || t.opts.Redact == nil {
		return e, err
	}
	line, err := t.opts.Redact(e.Obj.AppendJSON(nil))
	if err != nil {
		return nil, &jsonl.PosError{File: t.ix.Name, Line: e.Line, Offset: e.Offset, Err: err}
	}
	obj, err := jsonl.ParseObject(line)
	if err != nil {
		return nil, &jsonl.PosError{File: t.ix.Name, Line: e.Line, Offset: e.Offset, Err: err}
	}
	e.Obj, e.ID = obj, obj.String("id")
	return e, nil
}

// id returns entry i's id as the export shows it: redacted when asked, as
// it is in the entry itself (a placeholder depends on the value alone).
func (t *Transcript) id(i int) string {
	id := t.ix.ID(i)
	if t.opts.Redact == nil {
		return id
	}
	line, err := t.opts.Redact(jsonl.QuoteString(id))
	if err != nil {
		return "[REDACTED]"
	}
	var out string
	if jsonl.Unmarshal(line, &out) != nil {
		return "[REDACTED]"
	}
	return out
}

// at returns the entry at position k of the sequence, the current one.
func (t *Transcript) at(k int) (*decoded, error) {
	if d, ok := t.ahead[k]; ok {
		delete(t.ahead, k)
		return d, d.err
	}
	return t.take()
}

// peek returns the entry at position k, ahead of the current one, and keeps
// it for at.
func (t *Transcript) peek(k int) (*decoded, error) {
	for t.feed.next <= k {
		d, err := t.take()
		if d == nil {
			return nil, err
		}
		t.ahead[t.feed.next-1] = d
	}
	d := t.ahead[k]
	return d, d.err
}

// take returns the next entry of the feed, or its decoding error. The feed
// ends before the sequence only when Each's context is cancelled: then it
// returns the context's error.
func (t *Transcript) take() (*decoded, error) {
	d, ok := t.feed.take()
	if !ok {
		return nil, t.feed.ctx.Err()
	}
	return d, d.err
}

// noteSystemState records whether a system prompt was set on the path to e
// (shown as it): a system message, or a compaction that carries one.
func (t *Transcript) noteSystemState(e *jsonl.Entry, it *Item) {
	carries := it.Kind == KindSystem || (e.Type == jsonl.TypeCompaction && e.Obj.Has("systemMessage"))
	t.system[e.N] = carries || (e.Parent >= 0 && t.system[e.Parent])
}

// leadingSystem reports whether e starts the system prompt on its branch.
func (t *Transcript) leadingSystem(e *jsonl.Entry) bool {
	return e.Parent < 0 || !t.system[e.Parent]
}

// results finds the tool results of calls in the entries that follow: the
// first result of each call id, among the tool results right after the
// call's message (other entry types may come between them). It marks them as
// shown with the call.
func (t *Transcript) results(calls map[string]bool) (map[string]*ToolResult, error) {
	found := map[string]*ToolResult{}
	for k := t.pos + 1; k < len(t.seq) && k <= t.pos+toolLookahead && len(found) < len(calls); k++ {
		d, err := t.peek(k)
		if err != nil {
			return nil, err
		}
		if d.e.Type != jsonl.TypeMessage {
			continue
		}
		if d.msgErr != nil {
			return nil, d.msgErr
		}
		msg := d.msg
		if msg.Role != jsonl.RoleToolResult {
			break
		}
		if calls[msg.ToolCallID] && found[msg.ToolCallID] == nil {
			res := t.newToolResult(d)
			found[msg.ToolCallID], t.paired[k] = res, res
			t.within[d.e.ID] = t.id(t.seq[t.pos])
		}
	}
	return found, nil
}
