package jsonl

import (
	"io"
	"time"
)

// RequestFix returns the entries that make the request at leaf valid, to be
// appended after it in order: one context_edit with replacement null for each
// tool result a provider refuses, the first chained from leaf and each next
// one from the one before, as Pi's SessionManager.appendContextEdit writes them
// (type, id, parentId, timestamp, targetId, replacement). Ids are Pi's
// generateId over the index's ids and those already made (random as for
// GenerateID); every timestamp is now. Pi's own /tree shows each edit and can
// go back before it, and history stays byte-identical.
//
// Dropping a result never removes a call, so no new problem appears; a call
// left without its result gets Pi's synthetic "No result provided" result.
// For a call answered twice the later results are dropped and the first is
// kept. A provider takes one result per call, and the first is the one Pi
// shows: its TUI (interactive-mode.js renderSessionItems) puts each result
// under its call's pending component and forgets the call after the first,
// so later results never appear. It is also the one the agent loop recorded
// right after the call. problems must be Check's answer at leaf. Pi only accepts edits on its
// active branch, so leaf should be the active leaf; and the ids are those of
// the file as read, so the file must be v3 (repair migrates older ones first).
func (ix *Index) RequestFix(problems []RequestProblem, leaf int, now time.Time, random io.Reader) []Object {
	made := map[string]bool{}
	taken := func(id string) bool { _, ok := ix.Lookup(id); return ok || made[id] }
	parent := ix.ID(leaf)
	stamp := QuoteString(ISOTime(now))
	dropped := map[int]bool{}
	var out []Object
	for _, p := range problems {
		if dropped[p.Result.Entry] {
			continue
		}
		dropped[p.Result.Entry] = true
		id := GenerateID(random, taken)
		made[id] = true
		out = append(out, ObjectOf("type", QuoteString(TypeContextEdit.String()), "id", QuoteString(id),
			"parentId", QuoteString(parent), "timestamp", stamp, "targetId", QuoteString(p.Result.ID),
			"replacement", RawMessage("null")))
		parent = id
	}
	return out
}
