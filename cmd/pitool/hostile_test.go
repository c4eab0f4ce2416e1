package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// indexingCommands are the commands that index a whole session, whose cost
// per entry is bounded (bench/README.md, "Memory per entry").
var indexingCommands = [][]string{{"validate"}, {"context"}, {"compact", "--plan"}, {"tree"}, {"info"}}

// perEntryBound is the most each indexing command may add to its peak RSS
// per entry of a hostile shape, between the shape at a quarter of its size
// and at its size (so that buffers of a fixed size, which a small file does
// not fill, are not counted as a cost per entry): the index plus what the
// command keeps of the path. bench/README.md ("Memory per entry") has the
// figures measured.
//
// At these sizes fixed buffers and the collector's timing move a figure by
// ±200 bytes per entry; context and info keep 40-300 bytes per entry at
// 100,000-400,000 entries (scripts/bench-index-per-entry.sh), and on the
// default shapes measured at most 395 (2026-12-02), hence 500. tree keeps
// its children table and a bitset beside the index, no row per entry: on
// the default shapes it measured 197-357 in two runs, at most context's
// figure but on the labels, hence context's bound.
var perEntryBound = map[string]int64{
	"validate":       500,
	"context":        500,
	"compact --plan": 600,
	"tree":           500,
	"info":           500,
}

// measureEnv is the collector's setting for measured runs. GOGC=25: the
// peak then shows what a command keeps, not garbage the collector has not
// reclaimed yet (with pitool's defaults that slack is capped by the soft
// memory limit, a constant, not a cost per entry). gcstoptheworld=1: each
// collection stops the world until it has marked, so the peak is the
// collector's target whatever the load; under go test ./... a concurrent
// collection starved of CPU let the heap run past it (compact --plan 177
// bytes per entry, 86 alone; info on the chain 610 against at most 395).
var measureEnv = []string{"GOGC=25", "GODEBUG=gcstoptheworld=1"}

// timePerEntry and timeSlack bound a measured run's wall time: linear in
// the entries, with room for a loaded machine. maxGrowth bounds the CPU time
// (less moved by the load than wall time) of a run on four times the
// entries of another, with growthSlack: 4 when linear, 16 when quadratic.
const (
	timePerEntry = 100 * time.Microsecond
	timeSlack    = 60 * time.Second
	maxGrowth    = 8
	growthSlack  = 3 * time.Second
)

// hostileShape is one shape the bound is asserted on, at its default-run and
// long-suite sizes.
type hostileShape struct {
	shape         gen.Shape
	entries, long int
	textBytes     int
	// extra is what the shape's content costs per entry beyond
	// perEntryBound: long ids are kept, a finding per entry is reported.
	extra map[string]int64
}

// TestHostileShapesBounded: on a long chain, many siblings, many tiny
// entries, odd ids, self-parents and thousands of labels on one entry,
// every indexing command finishes within timePerEntry per entry and its peak
// RSS grows by at most perEntryBound per entry. PITOOL_LONG=1 runs the
// issue's sizes: 2,000,000 chained entries, 100,000 siblings, 5,000,000 tiny
// entries, and 2,000,000 entries of which every other is its own parent.
func TestHostileShapesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads hostile sessions with every indexing command")
	}
	if raceDetector {
		t.Skip("the bounds are in bytes per entry of the normal build; -race multiplies them")
	}
	shapes := []hostileShape{
		{shape: gen.ShapeChain, entries: 60_000, long: 2_000_000, textBytes: 100},
		{shape: gen.ShapeSiblings, entries: 30_000, long: 100_000},
		{shape: gen.ShapeTiny, entries: 60_000, long: 5_000_000},
		{shape: gen.ShapeOddIDs, entries: 12_000, long: 400_000, extra: oddIDsExtra},
		{shape: gen.ShapeSelfParent, entries: 12_000, long: 2_000_000, extra: map[string]int64{"validate": 300}},
		{shape: gen.ShapeLabels, entries: 10_001, long: 10_001, extra: smallFileExtra},
	}
	for _, sh := range shapes {
		t.Run(string(sh.shape), func(t *testing.T) {
			n := sh.entries
			if longSuite() {
				n = sh.long
			}
			dir := t.TempDir()
			writeShapeFile(t, filepath.Join(dir, "base.jsonl"), sh, n/4)
			writeShapeFile(t, filepath.Join(dir, "s.jsonl"), sh, n)
			for _, cmd := range indexingCommands {
				checkPerEntry(t, dir, cmd, n/4, n, sh.extra[strings.Join(cmd, " ")])
			}
		})
	}
}

// oddIDsExtra is what ShapeOddIDs' ids (85 bytes on average, a 300-byte one
// in four) cost per entry: the index keeps each id's text, validate its
// model.
var oddIDsExtra = map[string]int64{"validate": 400, "context": 600, "compact --plan": 300, "tree": 600, "info": 600}

// smallFileExtra widens the bound of a shape whose sizes differ by only a
// few thousand entries (10,000 labels), where a few buffers of a fixed size
// are a large share of the difference.
var smallFileExtra = map[string]int64{"validate": 400, "context": 400, "compact --plan": 200, "tree": 400, "info": 400}

// checkPerEntry runs cmd on base.jsonl (baseN entries) and s.jsonl (n
// entries) in dir and asserts its time and its bytes per added entry, at most
// perEntryBound plus extra.
func checkPerEntry(t *testing.T, dir string, cmd []string, baseN, n int, extra int64) {
	t.Helper()
	name := strings.Join(cmd, " ")
	base := runMeasuredEnv(t, dir, measureEnv, append(cmd, "base.jsonl")...)
	m := runMeasuredEnv(t, dir, measureEnv, append(cmd, "s.jsonl")...)
	perEntry := max(0, m.RSSKB-base.RSSKB) << 10 / int64(n-baseN)
	t.Logf("pitool %s: %d entries, exit %d, %d KB peak RSS (%d KB at %d entries), %d B/entry, %v (CPU %v, %v at %d)",
		name, n, m.Code, m.RSSKB, base.RSSKB, baseN, perEntry, m.Took.Round(time.Millisecond),
		m.CPU.Round(time.Millisecond), base.CPU.Round(time.Millisecond), baseN)
	if m.Code > 1 {
		t.Errorf("pitool %s: exit %d: %s", name, m.Code, clipText(m.Stderr))
	}
	if bound := perEntryBound[name] + extra; perEntry > bound {
		t.Errorf("pitool %s: %d bytes per entry, more than %d", name, perEntry, bound)
	}
	if limit := timeSlack + time.Duration(n)*timePerEntry; m.Took > limit {
		t.Errorf("pitool %s: %v on %d entries, more than %v", name, m.Took, n, limit)
	}
	if limit := maxGrowth*base.CPU + growthSlack; m.CPU > limit {
		t.Errorf("pitool %s: %v of CPU on %d entries, %v on %d: grows faster than linear", name, m.CPU, n, base.CPU, baseN)
	}
}

// writeShapeFile writes n entries of a hostile shape to path.
func writeShapeFile(t *testing.T, path string, sh hostileShape, n int) {
	t.Helper()
	err := safefile.WriteFile(path, safefile.Options{}, func(w io.Writer) error {
		_, err := gen.Write(w, gen.Options{Shape: sh.shape, Entries: n, TextBytes: sh.textBytes})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// clipText is s, clipped to a line for a test failure.
func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// longLineBytes is the single line of TestLongLineBounded: 200 MB in the
// long suite, 20 MB by default; both under jsonl.MaxLineBytes, the named
// limit (a longer line is refused with its position).
func longLineBytes() int {
	if longSuite() {
		return 200 << 20
	}
	return 20 << 20
}

// maxLineCopies bounds what a command may hold for one long line: its peak
// RSS grows by at most this many times the line's size.
const maxLineCopies = 12

// TestLongLineBounded: one message of longLineBytes on one line is handled
// (it is under jsonl.MaxLineBytes) by every indexing command, in bounded
// time, holding at most maxLineCopies copies of the line.
func TestLongLineBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a long line with every indexing command")
	}
	if raceDetector {
		t.Skip("the bounds are in bytes per entry of the normal build; -race multiplies them")
	}
	size := longLineBytes()
	if size >= jsonl.MaxLineBytes {
		t.Fatalf("the long line (%d bytes) must stay under jsonl.MaxLineBytes (%d)", size, jsonl.MaxLineBytes)
	}
	dir := t.TempDir()
	writeLongLine(t, filepath.Join(dir, "base.jsonl"), 1)
	writeLongLine(t, filepath.Join(dir, "s.jsonl"), size)
	for _, cmd := range indexingCommands {
		name := strings.Join(cmd, " ")
		base := runMeasuredEnv(t, dir, measureEnv, append(cmd, "base.jsonl")...)
		m := runMeasuredEnv(t, dir, measureEnv, append(cmd, "s.jsonl")...)
		grew := max(0, m.RSSKB-base.RSSKB) << 10
		t.Logf("pitool %s: a %d MB line, exit %d, %d KB peak RSS (base %d KB), %.1f× the line, %v",
			name, size>>20, m.Code, m.RSSKB, base.RSSKB, float64(grew)/float64(size), m.Took.Round(time.Millisecond))
		if m.Code > 1 {
			t.Errorf("pitool %s: exit %d: %s", name, m.Code, clipText(m.Stderr))
		}
		if grew > maxLineCopies*int64(size) {
			t.Errorf("pitool %s: peak RSS grew by %d bytes on a %d-byte line, more than %d copies", name, grew, size, maxLineCopies)
		}
		if m.Took > timeSlack {
			t.Errorf("pitool %s: %v on a %d-byte line", name, m.Took, size)
		}
	}
}

// writeLongLine writes a header and one user message whose text makes its
// line size bytes long.
func writeLongLine(t *testing.T, path string, size int) {
	t.Helper()
	err := safefile.WriteFile(path, safefile.Options{}, func(w io.Writer) error {
		head := `{"type":"message","id":"0a1b2c3d","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"`
		tail := `","timestamp":1767225600000}}` + "\n"
		if _, err := fmt.Fprint(w, memHeader, head); err != nil {
			return err
		}
		block := strings.Repeat("x", 1<<20)
		for left := max(1, size-len(head)-len(tail)); left > 0; left -= len(block) {
			if _, err := io.WriteString(w, block[:min(left, len(block))]); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, tail)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
