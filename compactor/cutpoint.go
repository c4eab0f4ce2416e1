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

func anyMessage(msgs []jsonl.Object, pred func(jsonl.Object) bool) bool {
	for _, m := range msgs {
		if pred(m) {
			return true
		}
	}
	return false
}

// isProjectedTurnStart is Pi's isProjectedTurnStart.
func isProjectedTurnStart(e jsonl.ProjectedEntry) bool {
	return e.Entry.Type != jsonl.TypeCompaction && anyMessage(e.Messages, isTurnStartMessage)
}

func findProjectedTurnStart(entries []jsonl.ProjectedEntry, from, start int) int {
	for i := from; i >= start; i-- {
		if isProjectedTurnStart(entries[i]) {
			return i
		}
	}
	return -1
}

func entryTokens(e jsonl.ProjectedEntry) int {
	n := 0
	for _, m := range e.Messages {
		n += jsonl.EstimateTokens(m)
	}
	return n
}

// findProjectedCutPoint is Pi's findProjectedCutPoint: walk back from the
// newest entry until keepRecent tokens are kept, cut at the nearest valid cut
// point at or after that entry, apply the recovery-omission rule, then pull in
// adjacent context-invisible entries.
func findProjectedCutPoint(entries []jsonl.ProjectedEntry, start, end, keepRecent int) cutPoint {
	var cuts []int
	for i := start; i < end; i++ {
		if entries[i].Entry.Type != jsonl.TypeCompaction && anyMessage(entries[i].Messages, isCutPointMessage) {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return cutPoint{firstKept: start, turnStart: -1}
	}
	cut, exceeded := budgetCut(entries, cuts, start, end, keepRecent)
	if exceeded && isRecoveryOmissionSuffix(entries[cut+1:end]) {
		cut++
	}
	for cut > start {
		prev := entries[cut-1]
		if prev.Entry.Type == jsonl.TypeCompaction || len(prev.Messages) > 0 {
			break
		}
		cut--
	}
	if isProjectedTurnStart(entries[cut]) {
		return cutPoint{firstKept: cut, turnStart: -1}
	}
	ts := findProjectedTurnStart(entries, cut, start)
	return cutPoint{firstKept: cut, turnStart: ts, isSplitTurn: ts != -1}
}

// budgetCut walks back accumulating estimated tokens and returns the first
// valid cut point at or after the entry that reaches keepRecent.
func budgetCut(entries []jsonl.ProjectedEntry, cuts []int, start, end, keepRecent int) (int, bool) {
	acc := 0
	for i := end - 1; i >= start; i-- {
		n := entryTokens(entries[i])
		if n == 0 {
			continue
		}
		if acc += n; acc >= keepRecent {
			for _, c := range cuts {
				if c >= i {
					return c, true
				}
			}
			return cuts[len(cuts)-1], true
		}
	}
	return cuts[0], false
}

// isRecoveryOmissionSuffix is Pi's rule for a recovery attempt and its
// omission edits after the cut: a closed suffix of omitted or invisible
// entries holding an omitted assistant attempt, with no replacement edit of
// anything outside it.
func isRecoveryOmissionSuffix(suffix []jsonl.ProjectedEntry) bool {
	omitted := map[string]bool{}
	hasOmittedAssistant := false
	for _, e := range suffix {
		visible := intrinsicallyVisible(e.Entry)
		if e.Entry.Type == jsonl.TypeCompaction || (visible && len(e.Messages) > 0) {
			return false
		}
		if visible {
			omitted[e.Entry.ID] = true
			hasOmittedAssistant = hasOmittedAssistant || isAssistantEntry(e.Entry)
		}
	}
	for _, e := range suffix {
		if e.Entry.Type == jsonl.TypeContextEdit && !jsonl.IsNull(orUndefined(e.Entry.Obj.Get("replacement"))) &&
			!omitted[e.Entry.Ref()] {
			return false
		}
	}
	return hasOmittedAssistant
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
