package repair

import (
	"github.com/pitool/pitool/internal/bitset"
	"github.com/pitool/pitool/jsonl"
)

// noParent marks a root in the plan's parent array.
const noParent = -1

// issueKind is a problem found along a branch.
type issueKind uint8

const (
	issueOrphan          issueKind = iota // a tool result whose call is not on its path
	issueNameMismatch                     // a tool result whose toolName differs from its call's name
	issueUnanswered                       // calls without results before the next turn
	issueUnansweredEnd                    // calls without results at the end of a branch
	issueKeptMissing                      // a compaction's firstKeptEntryId names no entry
	issueKeptOffPath                      // … names an entry not on its path
	issueEditMissing                      // a context_edit's target names no entry
	issueEditOffPath                      // … is not on its path
	issueEditNotEditable                  // … cannot be edited
)

// issue is one problem found along a branch.
type issue struct {
	kind  issueKind
	at    int   // the entry with the problem (for calls: the assistant)
	other int   // the next turn's entry or the branch's leaf; the call's assistant for a name mismatch
	calls []int // unanswered call indexes of at
}

// pathChecker walks every branch keeping what is on the current path: the
// tool calls, the results answering them, and the pending calls of the turn.
type pathChecker struct {
	m        *model
	ix       *jsonl.Index            // the tree of m's objects
	keptOf   func(i int) (int, bool) // a compaction's firstKept entry; false when it names none
	onPath   bitset.Set              // a bit per entry: whether it is on the current path
	pending  []opened                // where the path's open assistant changes, root first
	calls    map[uint64]int          // call id's hash → the nearest assistant on the path that made it
	shadowed []int                   // for each call pushed, the assistant it hid (-1 for none), popped on leave
	answered map[uint64]int          // call id's hash → results on the path
	issues   []issue
}

// opened says that from node on down the path, the assistant whose calls
// are open is a (-1: none), until the next opened.
type opened struct{ node, a int32 }

// checkPaths runs the checks of every branch of ix, the tree of m's objects.
func checkPaths(m *model, ix *jsonl.Index, keptOf func(int) (int, bool)) []issue {
	n := m.n
	pc := &pathChecker{m: m, ix: ix, keptOf: keptOf, onPath: bitset.New(n),
		calls: map[uint64]int{}, answered: map[uint64]int{}}
	ix.Walk(pc.enter, pc.leave)
	return pc.issues
}

func (pc *pathChecker) enter(i int, leaf bool) {
	ev := pc.m.at(i)
	e := &ev
	pc.onPath.Add(i)
	inherited := pc.openAt()
	pending := inherited
	switch {
	case e.typ == jsonl.TypeCompaction:
		// A compaction summarises the turn it interrupts: older Pi releases
		// compacted between a call and its result, and Pi's own files have that.
		pc.checkKept(i)
		pending = -1
	case e.typ == jsonl.TypeMessage && e.role == jsonl.ToolResultRole:
		pc.checkResult(i, e)
	case endsTurn(e):
		pc.closeTurn(pending, i, issueUnanswered)
		pending = -1
		if e.role == jsonl.AssistantRole && !e.aborted && len(e.calls) > 0 {
			pending = i
			pc.pushCalls(i, e)
		}
	case e.typ == jsonl.TypeContextEdit:
		pc.checkEdit(i, e)
	}
	if pending != inherited {
		pc.pending = append(pc.pending, opened{node: int32(i), a: int32(pending)})
	}
	if leaf {
		pc.closeTurn(pending, i, issueUnansweredEnd)
	}
}

func (pc *pathChecker) leave(i int) {
	ev := pc.m.at(i)
	e := &ev
	pc.onPath.Remove(i)
	opener := false
	if n := len(pc.pending); n > 0 && pc.pending[n-1].node == int32(i) {
		opener = pc.pending[n-1].a == int32(i)
		pc.pending = pc.pending[:n-1]
	}
	if e.typ != jsonl.TypeMessage {
		return
	}
	if e.role == jsonl.ToolResultRole {
		pc.answered[e.callHash]--
	}
	if e.role == jsonl.AssistantRole && !e.aborted && opener {
		for k := len(e.calls) - 1; k >= 0; k-- {
			prev := pc.shadowed[len(pc.shadowed)-1]
			pc.shadowed = pc.shadowed[:len(pc.shadowed)-1]
			if prev < 0 {
				delete(pc.calls, e.calls[k].hash)
			} else {
				pc.calls[e.calls[k].hash] = prev
			}
		}
	}
}

// on reports whether entry k is on the current path.
func (pc *pathChecker) on(k int) bool { return pc.onPath.Has(k) }

// openAt is the assistant whose calls are open where the path is, -1 for
// none.
func (pc *pathChecker) openAt() int {
	if n := len(pc.pending); n > 0 {
		return int(pc.pending[n-1].a)
	}
	return -1
}

func (pc *pathChecker) pushCalls(i int, e *entry) {
	for _, c := range e.calls {
		prev, ok := pc.calls[c.hash]
		if !ok {
			prev = -1
		}
		pc.shadowed = append(pc.shadowed, prev)
		pc.calls[c.hash] = i
	}
}

func (pc *pathChecker) checkResult(i int, e *entry) {
	pc.answered[e.callHash]++
	a, ok := pc.calls[e.callHash]
	if !ok {
		pc.issues = append(pc.issues, issue{kind: issueOrphan, at: i})
		return
	}
	calls, _ := pc.m.callsOf(a)
	for _, c := range calls {
		if c.hash == e.callHash && c.nameHash != e.nameHash && c.nameHash != emptyNameHash { // a call without a name cannot say
			pc.issues = append(pc.issues, issue{kind: issueNameMismatch, at: i, other: a})
			return
		}
	}
}

// closeTurn reports the calls of the pending assistant a that have no result
// on the path to node i.
func (pc *pathChecker) closeTurn(a, i int, kind issueKind) {
	if a < 0 {
		return
	}
	var open []int
	calls, _ := pc.m.callsOf(a)
	for k, c := range calls {
		if pc.answered[c.hash] <= 0 {
			open = append(open, k)
		}
	}
	if len(open) > 0 {
		pc.issues = append(pc.issues, issue{kind: kind, at: a, other: i, calls: open})
	}
}

func (pc *pathChecker) checkKept(i int) {
	k, ok := pc.keptOf(i)
	switch {
	case !ok:
		pc.issues = append(pc.issues, issue{kind: issueKeptMissing, at: i})
	case k != i && !pc.on(k):
		pc.issues = append(pc.issues, issue{kind: issueKeptOffPath, at: i, other: k})
	}
}

func (pc *pathChecker) checkEdit(i int, e *entry) {
	k, ok := pc.ix.Ref(i)
	switch {
	case !ok:
		pc.issues = append(pc.issues, issue{kind: issueEditMissing, at: i})
	case !pc.on(k):
		pc.issues = append(pc.issues, issue{kind: issueEditOffPath, at: i, other: k})
	case !editable(pc.m.at(k)):
		pc.issues = append(pc.issues, issue{kind: issueEditNotEditable, at: i, other: k})
	}
}

// endsTurn reports whether an entry starts a new turn: a message the model
// sees as user or assistant text.
func endsTurn(e *entry) bool {
	switch contextRole(e) {
	case jsonl.UserRole, jsonl.AssistantRole, jsonl.BashExecutionRole, jsonl.CustomRole, jsonl.BranchSummaryRole, jsonl.CompactionSummaryRole:
		return true
	}
	return false
}

// contextRole is the role of the message an entry adds to a context: its
// message's own, or the one its type makes up (jsonl.EntryType.ContextRole).
func contextRole(e *entry) jsonl.Role {
	if e.typ == jsonl.TypeMessage {
		return e.role
	}
	return e.typ.ContextRole()
}

func editable(e entry) bool {
	if e.typ != jsonl.TypeMessage {
		return e.typ.ContextRole() == jsonl.CustomRole
	}
	return e.role == jsonl.UserRole || e.role == jsonl.AssistantRole || e.role == jsonl.ToolResultRole
}
