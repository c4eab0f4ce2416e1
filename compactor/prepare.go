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

// PathEntry is what the rules read of a path entry besides its projection.
type PathEntry struct {
	ID   string
	Type jsonl.EntryType
}

// PathOf lists the ids and types of decoded path entries.
func PathOf(path []*jsonl.Entry) []PathEntry {
	out := make([]PathEntry, len(path))
	for i, e := range path {
		out[i] = PathEntry{ID: e.ID, Type: e.Type}
	}
	return out
}

// Prepare is Pi's prepareCompaction on a decoded root-to-leaf path. It returns
// nil (and no error) when there is nothing to compact: the leaf is already a
// compaction, or no message precedes the cut.
func Prepare(path []*jsonl.Entry, s Settings) (*Preparation, error) {
	proj, err := jsonl.Project(path)
	if err != nil {
		return nil, err
	}
	pe := PathOf(path)
	return PrepareProjection(proj, pe, ProjectedTokens(proj, pe), s), nil
}

// ProjectedTokens is Pi's estimateProjectedContextTokens of a path's
// projection: the last trusted assistant usage plus estimates of the messages
// after it, unless a context edit or compaction came after that usage.
func ProjectedTokens(proj *jsonl.Projection, path []PathEntry) int {
	if idx, usage := lastUsage(proj.Messages); idx >= 0 && usageStillValid(proj, path, idx) {
		for _, m := range proj.Messages[idx+1:] {
			usage += jsonl.EstimateTokens(m)
		}
		return usage
	}
	tokens := 0
	if sys, ok := CurrentSystemMessage(proj.Messages); ok {
		tokens = jsonl.EstimateTokens(sys)
	}
	for _, m := range proj.Messages {
		if !isRole(m, jsonl.SystemRole) {
			tokens += jsonl.EstimateTokens(m)
		}
	}
	return tokens
}

// usageStillValid reports whether the entry holding the last usage comes after
// the latest context edit or compaction of the path.
func usageStillValid(proj *jsonl.Projection, path []PathEntry, usageIndex int) bool {
	usageID, k := "", 0
	for _, e := range proj.Entries {
		if next := k + len(e.Messages); usageIndex < next {
			usageID = e.Entry.ID
			break
		} else {
			k = next
		}
	}
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

// lastUsage finds the last assistant message whose usage Pi trusts (Pi's
// getLastAssistantUsageInfo), scanning back from the end: -1 when none.
func lastUsage(msgs []jsonl.Object) (index, tokens int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if !isRole(msgs[i], jsonl.AssistantRole) {
			continue
		}
		if n, ok := jsonl.AssistantUsageTokens(msgs[i]); ok {
			return i, n
		}
	}
	return -1, 0
}

// PrepareProjection is Prepare on a projected path whose context tokens
// (ProjectedTokens) are known.
func PrepareProjection(proj *jsonl.Projection, path []PathEntry, tokens int, s Settings) *Preparation {
	if len(path) == 0 || path[len(path)-1].Type == jsonl.TypeCompaction {
		return nil
	}
	entries := proj.Entries
	prev, start := -1, 0
	for i, e := range entries {
		if e.Entry.Type == jsonl.TypeCompaction && len(e.Messages) > 0 {
			prev, start = i, i+1
			break
		}
	}
	cut := findProjectedCutPoint(entries, start, len(entries), s.KeepRecentTokens)
	if cut.firstKept >= len(entries) || entries[cut.firstKept].Entry.ID == "" {
		return nil
	}
	historyEnd := cut.firstKept
	if cut.isSplitTurn {
		historyEnd = cut.turnStart
	}
	p := &Preparation{
		FirstKeptEntryID:    entries[cut.firstKept].Entry.ID,
		MessagesToSummarize: summarizable(entries[start:historyEnd]),
		IsSplitTurn:         cut.isSplitTurn,
		TokensBefore:        tokens,
	}
	if cut.isSplitTurn {
		p.TurnPrefixMessages = summarizable(entries[cut.turnStart:cut.firstKept])
	}
	if len(p.MessagesToSummarize) == 0 && len(p.TurnPrefixMessages) == 0 {
		return nil
	}
	if prev >= 0 {
		p.previous = entries[prev].Entry
		p.PreviousSummary = p.previous.Obj.Get("summary")
	}
	p.SystemMessage, p.HasSystemMessage = CurrentSystemMessage(proj.Messages)
	return p
}

// summarizable is Pi's getMessagesFromProjectedEntryForCompaction over a range:
// compaction entries contribute nothing and system messages are prompt state.
func summarizable(entries []jsonl.ProjectedEntry) []jsonl.Object {
	var out []jsonl.Object
	for _, e := range entries {
		if e.Entry.Type == jsonl.TypeCompaction {
			continue
		}
		for _, m := range e.Messages {
			if !isRole(m, jsonl.SystemRole) {
				out = append(out, m)
			}
		}
	}
	return out
}

// isRole reports whether a message's role is role, read as JSON.parse reads
// it (an escaped "\u0075ser" is a user).
func isRole(m jsonl.Object, role jsonl.Role) bool {
	return jsonl.RoleOf(m.Get("role")) == role
}
