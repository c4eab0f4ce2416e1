package compactor

import (
	"sort"

	"github.com/pitool/pitool/jsonl"
)

// projection is what the compaction rules read of a projected path: a few
// packed facts per entry, the system messages, and a way to decode an entry
// again when a rule or the summary needs its messages. A path of millions of
// entries costs 4 bytes per projected entry, not its messages (issue 16).
type projection struct {
	path    pathFacts
	entries []slimEntry
	// odd holds the counts of the entries flagged odd: those with a system
	// message, more than one message, or more tokens than slimEntry holds.
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

// slimEntry is what planning keeps of one projected entry: its flags in the
// low flagBits bits and, unless it is odd, the estimated tokens of its
// messages above them. An entry that is not odd has one message when it has
// messages at all, and it is not a system one.
type slimEntry uint32

// flagBits is how many low bits of a slimEntry hold its flags.
const flagBits = 5

// maxSlimTokens is the most tokens a slimEntry holds itself.
const maxSlimTokens = 1<<(32-flagBits) - 1

func (e slimEntry) flags() slimFlags { return slimFlags(e & (1<<flagBits - 1)) }

// oddCounts are the counts of an entry flagged odd.
type oddCounts struct {
	tokens int // estimated tokens of its messages
	plain  int // of those, the tokens of its messages that are not system ones
	msgs   int // its messages that are not system ones
	system bool
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
	var flags slimFlags
	var counts oddCounts
	for _, m := range pe.Messages {
		flags |= p.addMessage(&counts, m, int(k))
	}
	if len(pe.Messages) > 0 {
		flags |= hasMessages
	}
	if pe.Entry.Type == jsonl.TypeCompaction {
		flags = flags&^(canCut|turnStart) | compaction
	}
	if counts.system || counts.msgs > 1 || uint(counts.tokens) > maxSlimTokens {
		if p.odd == nil {
			p.odd = map[int32]oddCounts{}
		}
		p.odd[k] = counts
		p.entries = append(p.entries, slimEntry(flags|odd))
		return
	}
	p.entries = append(p.entries, slimEntry(counts.tokens)<<flagBits|slimEntry(flags))
}

// addMessage counts message m of entry k into counts and the path's totals,
// and returns the flags it gives the entry.
func (p *projection) addMessage(counts *oddCounts, m jsonl.Object, k int) (flags slimFlags) {
	est := jsonl.EstimateTokens(m)
	counts.tokens += est
	role := jsonl.RoleOf(m.Get("role"))
	if role == jsonl.SystemRole {
		p.system = append(p.system, m)
		counts.system = true
	} else {
		counts.msgs++
		counts.plain += est
		p.plainTokens += est
	}
	if isCutPointMessage(m) {
		flags |= canCut
	}
	if isTurnStartMessage(m) {
		flags |= turnStart
	}
	if role == jsonl.AssistantRole {
		if n, ok := jsonl.AssistantUsageTokens(m); ok {
			p.usage = usageMark{found: true, entry: k, tokens: n}
			return flags
		}
	}
	p.usage.tokens += est
	return flags
}

// flags returns the k-th entry's flags.
func (p *projection) flags(k int) slimFlags { return p.entries[k].flags() }

// tokens returns the estimated tokens of the k-th entry's messages.
func (p *projection) tokens(k int) int {
	if e := p.entries[k]; e.flags()&odd == 0 {
		return int(e >> flagBits)
	}
	return p.odd[int32(k)].tokens
}

// counts returns the k-th entry's messages that are not system ones, and
// their tokens.
func (p *projection) counts(k int) (msgs, plain int) {
	e := p.entries[k]
	switch {
	case e.flags()&odd != 0:
		c := p.odd[int32(k)]
		return c.msgs, c.plain
	case e.flags()&hasMessages != 0:
		return 1, int(e >> flagBits)
	}
	return 0, 0
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
		if msgs, _ := p.counts(k); p.flags(k)&compaction != 0 || msgs == 0 {
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
		if p.flags(k)&compaction == 0 {
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
