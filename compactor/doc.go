// Package compactor owns Pi 1.6.0's compaction rules for a session path: when
// compaction is due, where to cut, what to summarize, how summarizers are
// asked, and the compaction entry that is appended.
//
// It builds on jsonl's projection (Project, EstimateTokens, ConvertToLlm) and
// never re-derives context selection. Prepare mirrors Pi's prepareCompaction,
// Compact mirrors its compact, and NewEntry mirrors SessionManager.appendCompaction.
package compactor
