package main

import (
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
)

// planBytesPerEntry bounds what `compact --plan` adds to its peak RSS per
// entry of a long chain that was never compacted, between 100,000 and
// 400,000 entries, where the fixed buffers that dominate the small shapes
// of TestHostileShapesBounded no longer weigh: the index, the path as entry
// numbers (4 bytes) and the plan's packed facts (4 bytes), measured as
// TestHostileShapesBounded does (measureEnv).
// bench/README.md ("compact --plan over the index") has the figures.
const planBytesPerEntry = 120

// TestPlanCostPerEntry: the plan of a never-compacted chain keeps a few
// bytes per entry beside the index, not the entries' ids or messages
// (issue 16).
func TestPlanCostPerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and plans two chains of 100,000 and 400,000 entries")
	}
	if raceDetector {
		t.Skip("the bound is in bytes per entry of the normal build; -race multiplies it")
	}
	const baseN, n = 100_000, 400_000
	dir := t.TempDir()
	sh := hostileShape{shape: gen.ShapeChain, textBytes: 100}
	writeShapeFile(t, filepath.Join(dir, "base.jsonl"), sh, baseN)
	writeShapeFile(t, filepath.Join(dir, "s.jsonl"), sh, n)
	base := runMeasuredEnv(t, dir, measureEnv, "compact", "--plan", "base.jsonl")
	m := runMeasuredEnv(t, dir, measureEnv, "compact", "--plan", "s.jsonl")
	if base.Code != 0 || m.Code != 0 {
		t.Fatalf("compact --plan: exit %d and %d: %s", base.Code, m.Code, clipText(base.Stderr+m.Stderr))
	}
	perEntry := max(0, m.RSSKB-base.RSSKB) << 10 / (n - baseN)
	t.Logf("compact --plan: %d KB peak RSS at %d entries, %d KB at %d: %d B/entry (CPU %v, %v)",
		m.RSSKB, n, base.RSSKB, baseN, perEntry, m.CPU, base.CPU)
	if perEntry > planBytesPerEntry {
		t.Errorf("compact --plan: %d bytes per entry, more than %d", perEntry, planBytesPerEntry)
	}
}
