package compactor

import (
	"time"

	"github.com/pitool/pitool/jsonl"
)

// NewEntry builds the compaction entry exactly as Pi 1.6.0's appendCompaction
// writes it: type, id, parentId, timestamp, summary, firstKeptEntryId,
// tokensBefore, details, usage (when known), fromHook, and the current system
// message as a checkpoint stamped with the entry's time.
func NewEntry(r *Result, p *Preparation, id, parentID string, now time.Time) jsonl.Object {
	parent := jsonl.RawMessage("null")
	if parentID != "" {
		parent = jsonl.QuoteString(parentID)
	}
	stamp := now.UTC().Truncate(time.Millisecond)
	e := jsonl.ObjectOf(
		"type", jsonl.QuoteString(jsonl.TypeCompaction.String()),
		"id", jsonl.QuoteString(id),
		"parentId", parent,
		"timestamp", jsonl.QuoteString(jsonl.ISOTime(stamp)),
		"summary", jsonl.QuoteString(r.Summary),
		jsonl.RefFirstKept.String(), jsonl.QuoteString(r.FirstKeptEntryID),
		"tokensBefore", jsonl.AppendInt(nil, int64(r.TokensBefore)),
		"details", r.Details.AppendJSON(nil),
	)
	if r.Usage != nil {
		e.Set("usage", r.Usage.AppendJSON(nil))
	}
	e.Set("fromHook", jsonl.RawMessage("false"))
	if p.HasSystemMessage {
		sys := p.SystemMessage.Clone()
		sys.Set("timestamp", jsonl.AppendInt(nil, stamp.UnixMilli()))
		e.Set("systemMessage", sys.AppendJSON(nil))
	}
	return e
}

// AppendJSON writes the usage in pi-ai's Usage shape; pitool knows no prices,
// so the cost is zero and not from the provider.
func (u Usage) AppendJSON(dst []byte) []byte {
	n := func(v int) jsonl.RawMessage { return jsonl.AppendInt(nil, int64(v)) }
	zero := jsonl.RawMessage("0")
	cost := jsonl.ObjectOf("input", zero, "output", zero, "cacheRead", zero, "cacheWrite", zero, "total", zero,
		"totalFromProvider", jsonl.RawMessage("false"))
	return jsonl.ObjectOf("input", n(u.Input), "output", n(u.Output), "cacheRead", n(u.CacheRead),
		"cacheWrite", n(u.CacheWrite), "totalTokens", n(u.Input+u.Output+u.CacheRead+u.CacheWrite),
		"cost", cost.AppendJSON(nil)).AppendJSON(dst)
}
