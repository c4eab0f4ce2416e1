package gen

import "strings"

// branchPreamble opens every branch summary Pi writes.
const branchPreamble = "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n"

// systemIndex is the path index of the system message, after the model and thinking entries.
const systemIndex = 2

// maybeBranch goes back to an older turn boundary once BranchEvery entries have passed since the
// last branch, leaving the current leaf behind; half of the time it writes a branch_summary of
// the abandoned path.
func (g *generator) maybeBranch() error {
	if g.opts.BranchEvery == 0 || g.sinceBranch < g.opts.BranchEvery {
		return nil
	}
	g.sinceBranch = 0
	top := len(g.path.nodes) - 1
	if top <= systemIndex {
		return nil
	}
	lo := max(systemIndex, top-2*g.opts.BranchEvery)
	i := lo + g.rng.IntN(top-lo)
	for i > systemIndex && !g.path.nodes[i].kind.turnBoundary() {
		i--
	}
	from := g.path.nodes[top].id
	g.path.truncate(i)
	g.stats.Branches++
	g.stats.Leaves++
	if g.chance(2) {
		return nil
	}
	return g.branchSummary(from)
}

// branchSummary writes a branch_summary whose parent is the branch point and whose fromId is
// the abandoned leaf.
func (g *generator) branchSummary(from string) error {
	h := g.newHead("branch_summary", 20000)
	d := g.files.details()
	e := branchSummaryEntry{head: h, FromID: from, Summary: branchPreamble + g.summaryText() + fileTags(d), Details: d}
	return g.emit(h.ID, kindSummary, e)
}

// maybeCompact writes a compaction once CompactionEvery entries have passed since the last one.
// It keeps from a user message on the current path after the previous compaction, never the
// oldest one, so there is always something summarized.
func (g *generator) maybeCompact() error {
	if g.opts.CompactionEvery == 0 || g.sinceCompaction < g.opts.CompactionEvery {
		return nil
	}
	last := g.path.lastCompaction()
	users := g.path.recent(kindUser, last, len(g.path.nodes))
	if len(users) < 2 {
		return nil
	}
	kept := g.path.nodes[users[g.rng.IntN((len(users)+1)/2)]].id
	tokens := g.contextTokens()
	h := g.newHead("compaction", 30000)
	sys := g.system
	sys.Timestamp = g.nowMs()
	d := g.files.details()
	e := compactionEntry{
		head:             h,
		Summary:          g.summaryText() + fileTags(d),
		FirstKeptEntryID: kept,
		TokensBefore:     tokens,
		Details:          d,
		Usage:            g.usageFor(tokens, 300+g.rng.IntN(900)),
		SystemMessage:    &sys,
	}
	g.sinceCompaction = 0
	g.stats.Compactions++
	return g.emit(h.ID, kindCompaction, e)
}

// summaryText is a summary in the structure of Pi's summarization prompt.
func (g *generator) summaryText() string {
	var b strings.Builder
	b.WriteString("## Goal\n" + g.text.prose(120))
	b.WriteString("\n\n## Constraints & Preferences\n- " + g.text.words(6))
	b.WriteString("\n\n## Progress\n### Done\n- [x] " + g.text.words(5) + "\n- [x] " + g.text.words(5))
	b.WriteString("\n\n### In Progress\n- [ ] " + g.text.words(5))
	b.WriteString("\n\n## Key Decisions\n- **" + g.text.words(2) + "**: " + g.text.words(8))
	b.WriteString("\n\n## Next Steps\n1. " + g.text.words(6))
	b.WriteString("\n\n## Critical Context\n- " + g.text.words(6))
	return b.String()
}
