package compactor

import (
	"github.com/pitool/pitool/jsonl"
)

// projection is what the compaction rules read of a projected path: a few
// facts per entry, the system messages, and a way to decode an entry again
// when a rule or the summary needs its messages. A path of millions of
// entries costs a few words each, not its messages (issue 16).
type projection struct {
	entries []slimEntry
	system  []jsonl.Object // every system message, in order (CurrentSystemMessage replays them)
	// plainTokens is the estimate of every message that is not a system one.
	plainTokens int
	usage       usageMark
	// again decodes the k-th projected entry again.
	again func(k int) (jsonl.ProjectedEntry, error)
}

// slimEntry is what planning keeps of one projected entry.
type slimEntry struct {
	tokens int32 // estimated tokens of its messages
	plain  int32 // of those, the tokens of its messages that are not system ones
	msgs   int32 // its messages that are not system ones
	at     int32 // where the entry is in its selection, to decode it again
	typ    jsonl.EntryType
	flags  slimFlags
}

// slimFlags are the predicates the cut-point rules ask of an entry.
type slimFlags uint8

const (
	hasMessages slimFlags = 1 << iota // it contributes a message
	canCut                            // not a compaction, and a message may start the kept context
	turnStart                         // not a compaction, and a message starts a turn (Pi's isProjectedTurnStart)
)

// usageMark is where the last assistant usage Pi trusts lies, and the
// estimate of the messages after it.
type usageMark struct {
	found  bool
	entry  int // the projected entry holding it
	tokens int // its usage plus the estimates of every message after it
}

// add appends the facts of one projected entry, the at-th of its selection;
// its messages are not kept, except system messages.
func (p *projection) add(at int, pe jsonl.ProjectedEntry) {
	s := slimEntry{typ: pe.Entry.Type, at: int32(at)}
	for _, m := range pe.Messages {
		p.addMessage(&s, m, len(p.entries))
	}
	if len(pe.Messages) > 0 {
		s.flags |= hasMessages
	}
	if s.typ == jsonl.TypeCompaction {
		s.flags &^= canCut | turnStart
	}
	p.entries = append(p.entries, s)
}

// addMessage counts message m of entry k into s and the path's totals.
func (p *projection) addMessage(s *slimEntry, m jsonl.Object, k int) {
	est := jsonl.EstimateTokens(m)
	s.tokens += int32(est)
	role := jsonl.RoleOf(m.Get("role"))
	if role == jsonl.SystemRole {
		p.system = append(p.system, m)
	} else {
		s.msgs++
		s.plain += int32(est)
		p.plainTokens += est
	}
	if isCutPointMessage(m) {
		s.flags |= canCut
	}
	if isTurnStartMessage(m) {
		s.flags |= turnStart
	}
	if role == jsonl.AssistantRole {
		if n, ok := jsonl.AssistantUsageTokens(m); ok {
			p.usage = usageMark{found: true, entry: k, tokens: n}
			return
		}
	}
	p.usage.tokens += est
}

// projectionOf is the projection of a decoded path's projection, whose
// entries stay in memory.
func projectionOf(full *jsonl.Projection) *projection {
	p := &projection{again: func(k int) (jsonl.ProjectedEntry, error) { return full.Entries[k], nil }}
	for k, pe := range full.Entries {
		p.add(k, pe)
	}
	return p
}

// entry decodes the k-th projected entry again.
func (p *projection) entry(k int) (*jsonl.Entry, error) {
	pe, err := p.again(k)
	return pe.Entry, err
}

// messagesOf decodes the entries in [from, to) again and returns their
// messages for a summary: compaction entries contribute nothing and system
// messages are prompt state (Pi's getMessagesFromProjectedEntryForCompaction).
func (p *projection) messagesOf(from, to int) ([]jsonl.Object, error) {
	var out []jsonl.Object
	for k := from; k < to; k++ {
		if p.entries[k].typ == jsonl.TypeCompaction || p.entries[k].msgs == 0 {
			continue
		}
		pe, err := p.again(k)
		if err != nil {
			return nil, err
		}
		for _, m := range pe.Messages {
			if !isRole(m, jsonl.SystemRole) {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// countOf is how many messages messagesOf(from, to) returns.
func (p *projection) countOf(from, to int) int {
	n := 0
	for _, e := range p.entries[from:to] {
		if e.typ != jsonl.TypeCompaction {
			n += int(e.msgs)
		}
	}
	return n
}

// contextTokens is Pi's estimateProjectedContextTokens: the last trusted
// assistant usage plus estimates of the messages after it, unless a context
// edit or compaction came after that usage; otherwise the estimate of the
// current system message and every other message.
func (p *projection) contextTokens(path []PathEntry) (int, error) {
	if p.usage.found {
		e, err := p.entry(p.usage.entry)
		if err != nil {
			return 0, err
		}
		if usageStillValid(path, e.ID) {
			return p.usage.tokens, nil
		}
	}
	tokens := p.plainTokens
	if sys, ok := CurrentSystemMessage(p.system); ok {
		tokens += jsonl.EstimateTokens(sys)
	}
	return tokens, nil
}

// usageStillValid reports whether the entry usageID, which holds the last
// usage, comes after the latest context edit or compaction of the path.
func usageStillValid(path []PathEntry, usageID string) bool {
	usageAt, invalidAt := -1, -1
	for i, e := range path {
		if usageAt < 0 && usageID != "" && e.ID == usageID {
			usageAt = i
		}
		if e.Type == jsonl.TypeContextEdit || e.Type == jsonl.TypeCompaction {
			invalidAt = i
		}
	}
	return usageAt > invalidAt
}

// keptTokens estimates the context once a compaction cutting at entry
// firstKept is appended, without the compaction's own messages: the messages
// kept from firstKept on, system messages dropped. It returns the tokens and
// the entries kept.
func (p *projection) keptTokens(firstKept int) (tokens, kept int) {
	for _, e := range p.entries[min(firstKept, len(p.entries)):] {
		tokens += int(e.plain)
		kept++
	}
	return tokens, kept
}
