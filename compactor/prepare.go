package compactor

import (
	"github.com/pitool/pitool/jsonl"
)

// Settings are Pi's compaction settings.
type Settings struct {
	ReserveTokens    int // room kept free for the reply (Pi's default 16384)
	KeepRecentTokens int // recent context kept verbatim (Pi's default 20000)
}

// DefaultSettings are Pi 1.6.0's DEFAULT_COMPACTION_SETTINGS.
var DefaultSettings = Settings{ReserveTokens: 16384, KeepRecentTokens: 20000}

// Due is Pi's shouldCompact: the context no longer leaves reserveTokens free.
func (s Settings) Due(contextTokens, contextWindow int) bool {
	return contextTokens > contextWindow-s.ReserveTokens
}

// Preparation is Pi's CompactionPreparation for one path.
type Preparation struct {
	FirstKeptEntryID    string
	MessagesToSummarize []jsonl.Object
	TurnPrefixMessages  []jsonl.Object
	IsSplitTurn         bool
	TokensBefore        int
	PreviousSummary     jsonl.RawMessage // nil without a previous compaction
	// SystemMessage is the current system message of the projected context,
	// the checkpoint the compaction entry carries.
	SystemMessage    jsonl.Object
	HasSystemMessage bool

	previous *jsonl.Entry // the previous compaction, whose file lists carry over
	files    *FileLists   // computed on first use

	// Until loadMessages: the projection, and the ranges of its entries that
	// the history and the turn prefix summarize.
	source          *projection
	history, prefix [2]int
	firstKept       int // the projected entry the compaction keeps from
}

// Files is Pi's extractFileOperations and computeFileLists: the files read and
// modified by the summarized messages (the turn prefix included) and those the
// previous compaction listed. It is computed on first use.
func (p *Preparation) Files() FileLists {
	if p.files != nil {
		return *p.files
	}
	var ops FileOps
	if p.previous != nil {
		ops.addPrevious(p.previous)
	}
	for _, m := range p.MessagesToSummarize {
		ops.AddFromMessage(m)
	}
	for _, m := range p.TurnPrefixMessages {
		ops.AddFromMessage(m)
	}
	lists := ops.Lists()
	p.files = &lists
	return lists
}

// Prepare is Pi's prepareCompaction on a decoded root-to-leaf path. It returns
// nil (and no error) when there is nothing to compact: the leaf is already a
// compaction, or no message precedes the cut.
func Prepare(path []*jsonl.Entry, s Settings) (*Preparation, error) {
	full, err := jsonl.Project(path)
	if err != nil {
		return nil, err
	}
	proj := projectionOf(path, full)
	tokens, err := proj.contextTokens()
	if err != nil {
		return nil, err
	}
	prep, err := proj.prepare(tokens, s)
	if prep != nil && err == nil {
		err = prep.loadMessages()
	}
	return prep, err
}

// prepare is Prepare on a projection whose context tokens (contextTokens)
// are known. The preparation counts the messages to summarize; loadMessages
// decodes them.
func (p *projection) prepare(tokens int, s Settings) (*Preparation, error) {
	if n := p.path.Len(); n == 0 || p.path.Type(n-1) == jsonl.TypeCompaction {
		return nil, nil
	}
	prev, start := -1, 0
	for i, e := range p.entries {
		if e.flags()&(compaction|hasMessages) == compaction|hasMessages {
			prev, start = i, i+1
			break
		}
	}
	cut, err := p.findCutPoint(start, len(p.entries), s.KeepRecentTokens)
	if err != nil || cut.firstKept >= len(p.entries) {
		return nil, err
	}
	first, err := p.entry(cut.firstKept)
	if err != nil || first.ID == "" {
		return nil, err
	}
	prep := &Preparation{FirstKeptEntryID: first.ID, IsSplitTurn: cut.isSplitTurn, TokensBefore: tokens,
		history: [2]int{start, cut.firstKept}, firstKept: cut.firstKept, source: p}
	if cut.isSplitTurn {
		prep.history[1], prep.prefix = cut.turnStart, [2]int{cut.turnStart, cut.firstKept}
	}
	if history, prefix := prep.MessageCounts(); history == 0 && prefix == 0 {
		return nil, nil
	}
	if prev >= 0 {
		if prep.previous, err = p.entry(prev); err != nil {
			return nil, err
		}
		prep.PreviousSummary = prep.previous.Obj.Get("summary")
	}
	prep.SystemMessage, prep.HasSystemMessage = CurrentSystemMessage(p.system)
	return prep, nil
}

// MessageCounts returns how many messages the history summary and the turn
// prefix summarize; they are known before loadMessages decodes the messages.
func (p *Preparation) MessageCounts() (history, prefix int) {
	if p.source == nil {
		return len(p.MessagesToSummarize), len(p.TurnPrefixMessages)
	}
	return p.source.countOf(p.history[0], p.history[1]), p.source.countOf(p.prefix[0], p.prefix[1])
}

// loadMessages decodes the messages to summarize and the turn prefix again,
// while the session's file is open, and lets the projection go.
func (p *Preparation) loadMessages() error {
	if p.source == nil {
		return nil
	}
	var err error
	if p.MessagesToSummarize, err = p.source.messagesOf(p.history[0], p.history[1]); err != nil {
		return err
	}
	if p.TurnPrefixMessages, err = p.source.messagesOf(p.prefix[0], p.prefix[1]); err != nil {
		return err
	}
	p.source = nil
	return nil
}

// isRole reports whether a message's role is role, read as JSON.parse reads
// it (an escaped "\u0075ser" is a user).
func isRole(m jsonl.Object, role jsonl.Role) bool {
	return jsonl.RoleOf(m.Get("role")) == role
}
