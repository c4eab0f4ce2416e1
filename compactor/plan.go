package compactor

import (
	"github.com/pitool/pitool/jsonl"
)

// SummarizeText is the serialized conversation the history summary is made from.
func (p *Preparation) SummarizeText() string {
	return SerializeConversation(jsonl.ConvertToLlm(p.MessagesToSummarize))
}

// TurnPrefixText is the serialized prefix of a split turn ("" when not split).
func (p *Preparation) TurnPrefixText() string {
	return SerializeConversation(jsonl.ConvertToLlm(p.TurnPrefixMessages))
}

// PlanFields returns the preparation as the fields `pi-ref prepare` prints, in
// its order: firstKeptEntryId, isSplitTurn, tokensBefore, previousSummary,
// messagesToSummarize and turnPrefixMessages (counts), summarizeText,
// turnPrefixText and files.
func (p *Preparation) PlanFields() jsonl.Object {
	prev := p.PreviousSummary
	if prev == nil {
		prev = jsonl.RawMessage("null")
	}
	history, prefix := p.MessageCounts()
	return jsonl.ObjectOf(
		jsonl.RefFirstKept.String(), jsonl.QuoteString(p.FirstKeptEntryID),
		"isSplitTurn", boolJSON(p.IsSplitTurn),
		"tokensBefore", jsonl.AppendInt(nil, int64(p.TokensBefore)),
		"previousSummary", prev,
		"messagesToSummarize", jsonl.AppendInt(nil, int64(history)),
		"turnPrefixMessages", jsonl.AppendInt(nil, int64(prefix)),
		"summarizeText", jsonl.QuoteString(p.SummarizeText()),
		"turnPrefixText", jsonl.QuoteString(p.TurnPrefixText()),
		"files", p.Files().AppendJSON(nil),
	)
}

func boolJSON(b bool) jsonl.RawMessage {
	if b {
		return jsonl.RawMessage("true")
	}
	return jsonl.RawMessage("false")
}
