package compactor

import (
	"sort"

	"github.com/pitool/pitool/jsonl"
)

// projection is what the compaction rules read of a projected path: a few
// packed facts per entry, the system messages, and a way to decode an entry
// again when a rule or the summary needs its messages. A path of millions of
// entries costs 8 bytes per projected entry, not its messages (issue 16).
type projection struct {
	path    pathFacts
	entries []slimEntry
	// odd holds the counts of the entries flagged odd: those with a system
	// message or more messages than slimEntry counts.
	odd    map[int32]oddCounts
	system []jsonl.Object // every system message, in order (CurrentSystemMessage replays them)
	// skipped lists, in order, the places of the selection the stream passed
	// over (system messages before the compaction): an entry's place is its
	// number plus the places skipped before it.
	skipped []int32
	// plainTokens is the estimate of every message that is not a system one.
	plainTokens int
	usage       usageMark
	// again decodes the entry at a place of the selection again.
	again func(at int) (jsonl.ProjectedEntry, error)
}

// slimEntry is what planning keeps of one projected entry.
type slimEntry struct {
	tokens int32 // estimated tokens of its messages
	msgs   uint8 // its messages that are not system ones, unless odd
	flags  slimFlags
}

// oddCounts are the counts of an entry flagged odd.
type oddCounts struct {
	plain int32 // the tokens of its messages that are not system ones
	msgs  int32 // its messages that are not system ones
}

// slimFlags are the predicates the cut-point rules ask of an entry.
type slimFlags uint8

const (
	hasMessages slimFlags = 1 << iota // it contributes a message
	canCut                            // not a compaction, and a message may start the kept context
	turnStart                         // not a compaction, and a message starts a turn (Pi's isProjectedTurnStart)
	compaction                        // a compaction entry
	odd                               // its counts are in projection.odd
)

// usageMark is where the last assistant usage Pi trusts lies, and the
// estimate of the messages after it.
type usageMark struct {
	found  bool
	entry  int // the projected entry holding it
	tokens int // its usage plus the estimates of every message after it
}

// newProjection is an empty projection of path; entries is how many entries
// the projection will hold at most.
func newProjection(path pathFacts, entries int, again func(at int) (jsonl.ProjectedEntry, error)) *projection {
	return &projection{path: path, entries: make([]slimEntry, 0, entries), again: again}
}

// add appends the facts of one projected entry, at its place in the
// selection; its messages are not kept, except system messages.
func (p *projection) add(at int, pe jsonl.ProjectedEntry) {
	for place := len(p.entries) + len(p.skipped); place < at; place++ {
		p.skipped = append(p.skipped, int32(place))
	}
	k := int32(len(p.entries))
	var s slimEntry
	var counts oddCounts
	for _, m := range pe.Messages {
		p.addMessage(&s, &counts, m, int(k))
	}
	if len(pe.Messages) > 0 {
		s.flags |= hasMessages
	}
	if pe.Entry.Type == jsonl.TypeCompaction {
		s.flags = s.flags&^(canCut|turnStart) | compaction
	}
	if s.flags&odd != 0 || counts.msgs > maxSlimMessages {
		s.flags |= odd
		if p.odd == nil {
			p.odd = map[int32]oddCounts{}
		}
		p.odd[k] = counts
	} else {
		s.msgs = uint8(counts.msgs)
	}
	p.entries = append(p.entries, s)
}

// maxSlimMessages is the most messages slimEntry counts itself.
const maxSlimMessages = 1<<8 - 1

// addMessage counts message m of entry k into s, counts and the path's
// totals; a system message makes the entry odd.
func (p *projection) addMessage(s *slimEntry, counts *oddCounts, m jsonl.Object, k int) {
	est := jsonl.EstimateTokens(m)
	s.tokens += int32(est)
	role := jsonl.RoleOf(m.Get("role"))
	if role == jsonl.SystemRole {
		p.system = append(p.system, m)
		s.flags |= odd
	} else {
		counts.msgs++
		counts.plain += int32(est)
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

// counts returns the k-th entry's messages that are not system ones, and
// their tokens.
func (p *projection) counts(k int) (msgs, plain int) {
	e := p.entries[k]
	if e.flags&odd != 0 {
		c := p.odd[int32(k)]
		return int(c.msgs), int(c.plain)
	}
	return int(e.msgs), int(e.tokens)
}

// place is where the k-th projected entry lies in its selection.
func (p *projection) place(k int) int {
	before := sort.Search(len(p.skipped), func(j int) bool { return int(p.skipped[j])-j > k })
	return k + before
}

// projectionOf is the projection of a decoded path's projection, whose
// entries stay in memory.
func projectionOf(path decodedPath, full *jsonl.Projection) *projection {
	p := newProjection(path, len(full.Entries), func(k int) (jsonl.ProjectedEntry, error) { return full.Entries[k], nil })
	for k, pe := range full.Entries {
		p.add(k, pe)
	}
	return p
}

// entry decodes the k-th projected entry again.
func (p *projection) entry(k int) (*jsonl.Entry, error) {
	pe, err := p.again(p.place(k))
	return pe.Entry, err
}

// messagesOf decodes the entries in [from, to) again and returns their
// messages for a summary: compaction entries contribute nothing and system
// messages are prompt state (Pi's getMessagesFromProjectedEntryForCompaction).
func (p *projection) messagesOf(from, to int) ([]jsonl.Object, error) {
	var out []jsonl.Object
	for k := from; k < to; k++ {
		if msgs, _ := p.counts(k); p.entries[k].flags&compaction != 0 || msgs == 0 {
			continue
		}
		pe, err := p.again(p.place(k))
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
	for k := from; k < to; k++ {
		if p.entries[k].flags&compaction == 0 {
			msgs, _ := p.counts(k)
			n += msgs
		}
	}
	return n
}

// contextTokens is Pi's estimateProjectedContextTokens: the last trusted
// assistant usage plus estimates of the messages after it, unless a context
// edit or compaction came after that usage; otherwise the estimate of the
// current system message and every other message.
func (p *projection) contextTokens() (int, error) {
	if p.usage.found {
		e, err := p.entry(p.usage.entry)
		if err != nil {
			return 0, err
		}
		if usageStillValid(p.path, e.ID) {
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
func usageStillValid(path pathFacts, usageID string) bool {
	usageAt, invalidAt := -1, -1
	for i := range path.Len() {
		if usageAt < 0 && usageID != "" && path.ID(i) == usageID {
			usageAt = i
		}
		if t := path.Type(i); t == jsonl.TypeContextEdit || t == jsonl.TypeCompaction {
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
	for k := min(firstKept, len(p.entries)); k < len(p.entries); k++ {
		_, plain := p.counts(k)
		tokens += plain
		kept++
	}
	return tokens, kept
}
