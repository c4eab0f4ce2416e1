package exporter

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// ErrNoHeader means the source has no session header; Pi refuses to open such
// a file, so it cannot be cloned or forked.
var ErrNoHeader = errors.New("no session header (Pi cannot open this file; run pitool repair first)")

// ErrLeafWithoutID means the entry Pi resumes at, the file's last, has no id:
// Pi's createBranchedSession then finds no entry to branch from ("Entry
// undefined not found") and writes nothing.
var ErrLeafWithoutID = errors.New(`the last entry has no "id", so there is no active leaf to clone (Pi refuses too: "Entry undefined not found"); choose one with --leaf ID (pitool tree --ids lists them)`)

// CheckActiveLeaf refuses, as Pi's /clone does, to clone a session at its
// active leaf when that entry has no id; the error names its line.
func CheckActiveLeaf(ix *jsonl.Index) error {
	leaf := ix.ActiveLeaf()
	if leaf == jsonl.None || ix.ID(leaf) != "" {
		return nil
	}
	return &jsonl.PosError{File: ix.Name, Line: ix.LineNum(leaf), Offset: ix.Offset(leaf), Err: ErrLeafWithoutID}
}

// NewHeader is the header of a session written by Clone, Fork or ForkFrom.
type NewHeader struct {
	ID            string    // a fresh UUIDv7
	Time          time.Time // the creation time
	Cwd           string
	ParentSession string // absolute path of the source, "" when it has none (stdin)
}

// FreshHeader returns a header with a new UUIDv7 and the current time, as
// Pi's newSession makes one.
func FreshHeader(cwd, parentSession string) NewHeader {
	now := time.Now().UTC()
	return NewHeader{ID: jsonl.NewSessionID(now, nil), Time: now, Cwd: cwd, ParentSession: parentSession}
}

// Timestamp is the header time as JavaScript's toISOString writes it.
func (h NewHeader) Timestamp() string { return jsonl.ISOTime(h.Time) }

// AppendJSON writes the header line as Pi's newSession does.
func (h NewHeader) AppendJSON(dst []byte) []byte {
	return jsonl.AppendHeader(dst, jsonl.Header{ID: h.ID, Timestamp: h.Timestamp(), Cwd: h.Cwd, ParentSession: h.ParentSession})
}

// SourceCwd returns the cwd a copy of ix keeps: the header's, made absolute
// as Pi's resolvePath does.
func SourceCwd(ix *jsonl.Index) (string, error) {
	if !ix.HasHeader {
		return "", &jsonl.PosError{File: ix.Name, Err: ErrNoHeader}
	}
	return filepath.Abs(ix.Header.Cwd)
}

// Result describes a session written by Clone, Fork or ForkFrom.
type Result struct {
	Entries int // entries written after the header
	Labels  int // label entries recreated
}

// Clone writes Pi's createBranchedSession(leaf) to w: the header, the path
// root→leaf without label entries (entries re-chained around them), then one
// new label entry for each label still set on a path entry, in the order Pi's
// label map holds them.
func Clone(w io.Writer, ix *jsonl.Index, leaf int, h NewHeader) (Result, error) {
	path, err := ix.Path(leaf)
	if err != nil {
		return Result{}, err
	}
	labels, err := labelOrder(ix)
	if err != nil {
		return Result{}, err
	}
	out, err := jsonl.NewWriter(w, jsonl.Plain)
	if err != nil {
		return Result{}, err
	}
	if err := out.WriteLine(h.AppendJSON(nil)); err != nil {
		return Result{}, err
	}
	kept, err := writeBranch(out, ix, path)
	if err != nil {
		return Result{}, err
	}
	n, err := writeLabels(out, labels, kept)
	if err != nil {
		return Result{}, err
	}
	return Result{Entries: len(kept.order) + n, Labels: n}, out.Close()
}

// keptPath is the label-free path as written: ids in order and as a set.
type keptPath struct {
	order []string
	ids   map[string]bool
}

func writeBranch(out *jsonl.Writer, ix *jsonl.Index, path []int) (keptPath, error) {
	kept := keptPath{ids: map[string]bool{}}
	replacement := map[string]string{} // label id → the next kept entry
	var pending []string
	parent := jsonl.RawMessage("null")
	for _, i := range path {
		e, err := ix.Decode(i)
		if err != nil {
			return kept, err
		}
		if e.Type == jsonl.TypeLabel {
			pending = append(pending, e.ID)
			continue
		}
		for _, l := range pending {
			replacement[l] = e.ID
		}
		pending = pending[:0]
		if err := out.WriteLine(rechain(e, parent, replacement)); err != nil {
			return kept, err
		}
		parent = jsonl.IDValue(e.ID) // a number stays one, as Pi writes it
		kept.order = append(kept.order, e.ID)
		kept.ids[e.ID] = true
	}
	return kept, nil
}

// rechain is {...entry, parentId} (and, for a compaction, a firstKeptEntryId
// that pointed at a dropped label moved to the entry that replaced it).
func rechain(e *jsonl.Entry, parent jsonl.RawMessage, replacement map[string]string) []byte {
	o := e.Obj.Clone()
	o.Set("parentId", parent)
	if e.Type == jsonl.TypeCompaction {
		first := e.Ref()
		if r, ok := replacement[first]; ok && first != e.ID {
			o.Set(jsonl.RefFirstKept.String(), jsonl.QuoteString(r))
		}
	}
	return jsonl.Canonical(o.AppendJSON(nil))
}

// labelState is one live entry of Pi's labelsById map.
type labelState struct {
	target, label string
	rawLabel      jsonl.RawMessage // the label as written, which may hold a lone surrogate that label cannot
	timestamp     jsonl.RawMessage // the label entry's raw "timestamp", nil when it has none
}

// labelOrder replays every label entry of the file in order, as Pi's
// _buildIndex does, and returns the labels still set in the Map's iteration
// order: a key keeps its first position until it is deleted.
func labelOrder(ix *jsonl.Index) ([]labelState, error) {
	var order []labelState
	pos := map[string]int{}
	for i := 0; i < ix.Len(); i++ {
		if ix.Type(i) != jsonl.TypeLabel {
			continue
		}
		e, err := ix.Decode(i)
		if err != nil {
			return nil, err
		}
		target, label := e.Ref(), e.Obj.String("label")
		p, live := pos[target]
		switch {
		case label == "" && live:
			order[p].target = ""
			delete(pos, target)
		case label != "" && live:
			order[p].label, order[p].rawLabel, order[p].timestamp = label, rawValue(e, "label"), rawValue(e, "timestamp")
		case label != "":
			pos[target] = len(order)
			order = append(order, labelState{target, label, rawValue(e, "label"), rawValue(e, "timestamp")})
		}
	}
	return order, nil
}

// rawValue returns a copy of the entry's value of key as it is: Pi writes a
// label's text and timestamp back unchanged (a lone surrogate included), and
// leaves the timestamp out when the label had none (undefined).
func rawValue(e *jsonl.Entry, key string) jsonl.RawMessage {
	if raw := e.Obj.Get(key); raw != nil {
		return append(jsonl.RawMessage(nil), raw...)
	}
	return nil
}

func writeLabels(out *jsonl.Writer, labels []labelState, kept keptPath) (int, error) {
	parent := jsonl.RawMessage("null")
	if len(kept.order) > 0 {
		parent = jsonl.IDValue(kept.order[len(kept.order)-1])
	}
	n := 0
	for _, l := range labels {
		if l.target == "" || !kept.ids[l.target] {
			continue
		}
		id := jsonl.GenerateID(nil, func(id string) bool { return kept.ids[id] })
		kept.ids[id] = true
		o := jsonl.ObjectOf("type", jsonl.QuoteString(jsonl.TypeLabel.String()), "id", jsonl.QuoteString(id), "parentId", parent,
			"timestamp", l.timestamp, jsonl.RefTarget.String(), jsonl.QuoteString(l.target), "label", l.rawLabel)
		if l.timestamp == nil {
			o.Delete("timestamp")
		}
		if err := out.WriteLine(jsonl.Canonical(o.AppendJSON(nil))); err != nil {
			return n, err
		}
		parent = jsonl.QuoteString(id)
		n++
	}
	return n, nil
}

// ForkPoint returns the leaf Pi's /fork branches at for the user message id:
// its parent, or None when the message is a root (the fork is then a new,
// empty session).
func ForkPoint(ix *jsonl.Index, id string) (int, error) {
	i, err := ix.ResolveLeaf(id)
	if err != nil {
		return jsonl.None, err
	}
	e, err := ix.Decode(i)
	if err != nil {
		return jsonl.None, err
	}
	msg, _ := e.Message()
	if e.Type != jsonl.TypeMessage || msg.String("role") != jsonl.RoleUser {
		return jsonl.None, &jsonl.PosError{File: ix.Name, Line: e.Line, Offset: e.Offset,
			Err: fmt.Errorf("entry %s is %s, not a user message: fork cuts just before a user message", id, textout.Article(describe(e, msg)))}
	}
	if pid, ok := ix.DanglingParent(i); ok {
		return jsonl.None, &jsonl.PosError{File: ix.Name, Line: e.Line, Offset: e.Offset, Err: fmt.Errorf("entry %s has a parent %s that is not in the file", id, pid)}
	}
	return ix.Parent(i), nil
}

func describe(e *jsonl.Entry, msg jsonl.Object) string {
	if role := msg.String("role"); e.Type == jsonl.TypeMessage && role != "" {
		return role + " message"
	}
	return e.TypeName() + " entry"
}

// Fork writes Pi's /fork: a clone of the branch that ends at leaf (from
// ForkPoint), or only a header when leaf is None.
func Fork(w io.Writer, ix *jsonl.Index, leaf int, h NewHeader) (Result, error) {
	if leaf != jsonl.None {
		return Clone(w, ix, leaf, h)
	}
	out, err := jsonl.NewWriter(w, jsonl.Plain)
	if err != nil {
		return Result{}, err
	}
	if err := out.WriteLine(h.AppendJSON(nil)); err != nil {
		return Result{}, err
	}
	return Result{}, out.Close()
}

// ForkFrom writes Pi's forkFrom: a header for another cwd, then every entry of
// the source, each as JSON.stringify writes it. Entries of v1/v2 files are
// written migrated, so that the result is a valid v3 file.
func ForkFrom(w io.Writer, ix *jsonl.Index, h NewHeader) (Result, error) {
	out, err := jsonl.NewWriter(w, jsonl.Plain)
	if err != nil {
		return Result{}, err
	}
	if err := out.WriteLine(h.AppendJSON(nil)); err != nil {
		return Result{}, err
	}
	for i := 0; i < ix.Len(); i++ {
		e, err := ix.Decode(i)
		if err != nil {
			return Result{}, err
		}
		if err := out.WriteLine(jsonl.Canonical(e.Obj.AppendJSON(nil))); err != nil {
			return Result{}, err
		}
	}
	return Result{Entries: ix.Len()}, out.Close()
}
