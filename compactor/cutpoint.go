package compactor

import (
	"github.com/pitool/pitool/jsonl"
)

// cutPoint is Pi's CutPointResult over projected entries.
type cutPoint struct {
	firstKept   int
	turnStart   int // -1 when the cut starts a turn
	isSplitTurn bool
}

func isCutPointMessage(m jsonl.Object) bool {
	switch jsonl.RoleOf(m.Get("role")) {
	case jsonl.UserRole, jsonl.AssistantRole, jsonl.BashExecutionRole, jsonl.CustomRole,
		jsonl.BranchSummaryRole, jsonl.CompactionSummaryRole:
		return true
	}
	return false
}

func isTurnStartMessage(m jsonl.Object) bool {
	return !isRole(m, jsonl.AssistantRole) && isCutPointMessage(m)
}

// findTurnStart is Pi's findProjectedTurnStart: the nearest entry at or
// before from, down to start, that starts a turn; -1 when none.
func (p *projection) findTurnStart(from, start int) int {
	for i := from; i >= start; i-- {
		if p.flags(i)&turnStart != 0 {
			return i
		}
	}
	return -1
}

// findCutPoint is Pi's findProjectedCutPoint: walk back from the newest entry
// until keepRecent tokens are kept, cut at the nearest valid cut point at or
// after that entry, apply the recovery-omission rule, then pull in adjacent
// context-invisible entries.
func (p *projection) findCutPoint(start, end, keepRecent int) (cutPoint, error) {
	first := p.nextCut(start, end)
	if first == end {
		return cutPoint{firstKept: start, turnStart: -1}, nil
	}
	cut, exceeded := p.budgetCut(first, start, end, keepRecent)
	if exceeded {
		omitted, err := p.isRecoveryOmissionSuffix(cut+1, end)
		if err != nil {
			return cutPoint{}, err
		}
		if omitted {
			cut++
		}
	}
	for cut > start {
		if p.flags(cut-1)&(compaction|hasMessages) != 0 {
			break
		}
		cut--
	}
	if p.flags(cut)&turnStart != 0 {
		return cutPoint{firstKept: cut, turnStart: -1}, nil
	}
	ts := p.findTurnStart(cut, start)
	return cutPoint{firstKept: cut, turnStart: ts, isSplitTurn: ts != -1}, nil
}

// nextCut is the first valid cut point in [from, end), end when none.
func (p *projection) nextCut(from, end int) int {
	for i := from; i < end; i++ {
		if p.flags(i)&canCut != 0 {
			return i
		}
	}
	return end
}

// lastCut is the last valid cut point in [first, end); first is one.
func (p *projection) lastCut(first, end int) int {
	for i := end - 1; i > first; i-- {
		if p.flags(i)&canCut != 0 {
			return i
		}
	}
	return first
}

// budgetCut walks back accumulating estimated tokens and returns the first
// valid cut point at or after the entry that reaches keepRecent; first is the
// first cut point of [start, end).
func (p *projection) budgetCut(first, start, end, keepRecent int) (int, bool) {
	acc := 0
	for i := end - 1; i >= start; i-- {
		n := p.tokens(i)
		if n == 0 {
			continue
		}
		if acc += n; acc >= keepRecent {
			if c := p.nextCut(max(i, first), end); c < end {
				return c, true
			}
			return p.lastCut(first, end), true
		}
	}
	return first, false
}

// isRecoveryOmissionSuffix is Pi's rule for a recovery attempt and its
// omission edits after the cut, the entries [from, end): a closed suffix of
// omitted or invisible entries holding an omitted assistant attempt, with no
// replacement edit of anything outside it. The entries are decoded again.
func (p *projection) isRecoveryOmissionSuffix(from, end int) (bool, error) {
	omitted := map[string]bool{}
	hasOmittedAssistant := false
	var edits []*jsonl.Entry
	for k := from; k < end; k++ {
		if p.flags(k)&compaction != 0 {
			return false, nil
		}
		e, err := p.entry(k)
		if err != nil {
			return false, err
		}
		visible := intrinsicallyVisible(e)
		if visible && p.flags(k)&hasMessages != 0 {
			return false, nil
		}
		if visible {
			omitted[e.ID] = true
			hasOmittedAssistant = hasOmittedAssistant || isAssistantEntry(e)
		}
		if e.Type == jsonl.TypeContextEdit {
			edits = append(edits, e)
		}
	}
	for _, e := range edits {
		if !jsonl.IsNull(orUndefined(e.Obj.Get("replacement"))) && !omitted[e.Ref()] {
			return false, nil
		}
	}
	return hasOmittedAssistant, nil
}

// orUndefined maps an absent value to a non-null marker: in Pi an absent
// replacement is undefined, which is !== null.
func orUndefined(raw jsonl.RawMessage) jsonl.RawMessage {
	if raw == nil {
		return jsonl.RawMessage("undefined")
	}
	return raw
}

func intrinsicallyVisible(e *jsonl.Entry) bool {
	if e.Type == jsonl.TypeContextEdit {
		return false
	}
	msgs, err := jsonl.EntryMessages(e)
	return err == nil && len(msgs) > 0
}

func isAssistantEntry(e *jsonl.Entry) bool {
	if e.Type != jsonl.TypeMessage {
		return false
	}
	m, err := e.Message()
	return err == nil && m.String("role") == jsonl.RoleAssistant
}
