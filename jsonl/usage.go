package jsonl

// Which entries count in a session's token and cost totals is Pi's rule,
// from getSessionStats in core/agent-session.js and getUsageCostBreakdown in
// core/usage-totals.js (Pi 1.6.0), which /session prints. Pi adds, over every
// entry of the file (every branch, history compacted away included):
//
//   - the "usage" of each assistant message, under its provider and its
//     responseModel (else model);
//   - the "usage" of each "usage" entry (tool calls that bill a model, such
//     as a web search or a sub-agent), under its provider and model;
//   - the "usage" of a tool result message that has one, and of a
//     "compaction" or "branch_summary" entry that has one (the summarizer's
//     call), under ToolsAndSummaries.
//
// Tokens are input, output, cacheRead and cacheWrite; the cost is
// usage.cost.total. Nothing else counts: user messages, custom messages and
// bash executions bill nothing.

// ToolsAndSummaries is the name Pi's /session gives usage no model is
// attributed to: that of tool results and of compaction and branch
// summaries. Charges of those carry it as provider and model.
const ToolsAndSummaries = "Tools/summaries"

// Charge is what one entry adds to a session's totals (see the rule above).
type Charge struct {
	Usage     Usage
	Provider  string // ToolsAndSummaries for tool and summary usage
	Model     string // responseModel, else model; ToolsAndSummaries for tool and summary usage
	Timestamp string // the entry's
}

// usageTop is what the usage rule reads at the top level of an entry.
type usageTop struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Usage    *Usage `json:"usage"`
}

// usageMessage is what the usage rule reads of a message.
type usageMessage struct {
	Role          string `json:"role"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	ResponseModel string `json:"responseModel"`
	Usage         *Usage `json:"usage"`
}

// chargeSkim is an entry as the usage rule reads it.
type chargeSkim struct {
	usageTop
	Timestamp string        `json:"timestamp"`
	Message   *usageMessage `json:"message"`
}

// billable reports whether entries of type t may carry usage Pi counts.
func billable(t EntryType) bool {
	return t == TypeMessage || t == TypeUsage || t == TypeCompaction || t == TypeBranchSummary
}

// chargeOf applies Pi's rule to an entry of type t, with its top-level keys
// and its message (nil when it has none).
func chargeOf(t EntryType, top *usageTop, m *usageMessage) (Charge, bool) {
	var u *Usage
	provider, model := ToolsAndSummaries, ToolsAndSummaries
	switch {
	case t == TypeUsage:
		u, provider, model = top.Usage, top.Provider, top.Model
	case t == TypeCompaction || t == TypeBranchSummary:
		u = top.Usage
	case t == TypeMessage && m != nil && m.Role == RoleAssistant:
		u, provider, model = m.Usage, m.Provider, m.Model
		if m.ResponseModel != "" {
			model = m.ResponseModel
		}
	case t == TypeMessage && m != nil && m.Role == RoleToolResult:
		u = m.Usage
	}
	if u == nil {
		return Charge{}, false
	}
	return Charge{Usage: *u, Provider: provider, Model: model}, true
}

// Add adds the tokens of v to u (not its cost, which Pi sums apart).
func (u *Usage) Add(v Usage) {
	t := u
	t.Input, t.Output, t.CacheRead, t.CacheWrite = t.Input+v.Input, t.Output+v.Output, t.CacheRead+v.CacheRead, t.CacheWrite+v.CacheWrite
	t.TotalTokens += v.TotalTokens
}

// CostTotal returns the usage's cost in dollars, 0 when it has none.
func (u Usage) CostTotal() float64 {
	if u.Cost == nil {
		return 0
	}
	return u.Cost.Total
}

// Charges calls fn with every entry that adds to the session's totals under
// Pi's rule, in file order: the entry number and its charge.
func (ix *Index) Charges(fn func(i int, c Charge) error) error {
	for i := 0; i < ix.Len(); i++ {
		if !billable(ix.Type(i)) {
			continue
		}
		raw, err := ix.rawLine(i)
		if err != nil {
			return err
		}
		var s chargeSkim
		Unmarshal(raw, &s) // validated by the index pass; mismatched types leave fields empty
		c, ok := chargeOf(ix.Type(i), &s.usageTop, s.Message)
		if !ok {
			continue
		}
		c.Timestamp = s.Timestamp
		if err := fn(i, c); err != nil {
			return err
		}
	}
	return nil
}
