// Package gen writes synthetic Pi v3 session files of any size and shape, for benchmarks and
// tests. Output is deterministic for a seed and streamed: memory follows the active path, not the file.
package gen

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/pitool/pitool/jsonl"
)

const (
	// defaultToolResultBytes is the typical size of a tool output when Options leaves it zero.
	defaultToolResultBytes = 1500
	// defaultCwd is the session's working directory when Options leaves it empty.
	defaultCwd = "/home/dev/project"
	// writeBufferSize is the size of the buffer between the generator and the caller's writer.
	writeBufferSize = 256 << 10
	// pcgStream is the second PCG seed word; the first is Options.Seed.
	pcgStream = 0x9e3779b97f4a7c15
)

// defaultTimestamp is the session start when Options leaves it zero, so output never depends on
// the wall clock.
var defaultTimestamp = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Options shape a generated session. Either TargetBytes or Entries must be set.
type Options struct {
	// Seed selects the session; the same Options always give the same bytes.
	Seed uint64
	// TargetBytes stops generation at the first entry that brings the file to this size.
	// 0 means use Entries.
	TargetBytes int64
	// Entries is the number of entries after the header, used when TargetBytes is 0.
	Entries int
	// BranchEvery starts a new branch off an older entry about every BranchEvery entries, half
	// of the time with a branch_summary. 0 writes one linear path.
	BranchEvery int
	// ToolResultBytes is the typical size of a tool output (0 means 1500).
	ToolResultBytes int
	// CompactionEvery appends a compaction about every CompactionEvery entries; its
	// firstKeptEntryId is a user message on the current path. 0 writes none.
	CompactionEvery int
	// ToolHeavy makes turns of many tool calls, with little prose and few other entries.
	ToolHeavy bool
	// Unicode mixes accented, CJK, Hangul and emoji text (including non-BMP characters) in.
	Unicode bool
	// Cwd is the header's working directory (default /home/dev/project).
	Cwd string
	// Timestamp is the session start (default 2026-01-01T00:00:00Z).
	Timestamp time.Time
	// Shape, when set, writes a hostile shape (see Shape) of Entries entries
	// instead of a conversation; only Cwd and TextBytes apply to it.
	Shape Shape
	// TextBytes is the length of each message's text in a Shape.
	TextBytes int
}

// Stats describe a written session.
type Stats struct {
	// Entries counts the lines after the header.
	Entries int64
	// Bytes counts every byte written, header and newlines included.
	Bytes int64
	// Leaves counts the entries without children: 1 plus one per branch (0 for a Shape: not counted).
	Leaves int64
	// Branches counts the times the session went back to an older entry.
	Branches int64
	// Compactions counts the compaction entries.
	Compactions int64
	// ToolCalls counts the tool calls, each answered by one toolResult.
	ToolCalls int64
}

// Write streams a session shaped by opts to w and reports what it wrote. The output is the same
// for the same opts; an error from w stops it.
func Write(w io.Writer, opts Options) (Stats, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Stats{}, err
	}
	if opts.Shape != "" {
		return writeShape(w, opts)
	}
	g := newGenerator(w, opts)
	err = g.run()
	g.stats.Bytes = g.out.n
	return g.stats, err
}

// withDefaults checks opts and fills in the zero fields that have defaults.
func (o Options) withDefaults() (Options, error) {
	if o.TargetBytes < 0 || o.Entries < 0 || o.BranchEvery < 0 || o.CompactionEvery < 0 || o.ToolResultBytes < 0 || o.TextBytes < 0 {
		return o, errors.New("gen: options must not be negative")
	}
	if o.TargetBytes == 0 && o.Entries == 0 {
		return o, errors.New("gen: set TargetBytes or Entries")
	}
	if o.ToolResultBytes == 0 {
		o.ToolResultBytes = defaultToolResultBytes
	}
	if o.Cwd == "" {
		o.Cwd = defaultCwd
	}
	if o.Timestamp.IsZero() {
		o.Timestamp = defaultTimestamp
	}
	return o, nil
}

// countingWriter buffers output and counts the bytes it accepted.
type countingWriter struct {
	w *bufio.Writer
	n int64
}

// Write buffers p.
func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// generator holds the state of one session being written.
type generator struct {
	opts  Options
	rng   *rand.Rand
	text  textGen
	ids   idSource
	clock clock
	out   *countingWriter
	enc   *json.Encoder
	path  path
	stats Stats

	model  model
	level  string
	system systemMessage
	files  fileOps

	sinceBranch     int
	sinceCompaction int
	labels          int
	named           bool
}

// newGenerator prepares a generator writing to w.
func newGenerator(w io.Writer, opts Options) *generator {
	rng := rand.New(rand.NewPCG(opts.Seed, pcgStream))
	out := &countingWriter{w: bufio.NewWriterSize(w, writeBufferSize)}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &generator{
		opts:  opts,
		rng:   rng,
		text:  textGen{rng: rng, unicode: opts.Unicode},
		ids:   newIDSource(rng),
		clock: clock{rng: rng, now: opts.Timestamp},
		out:   out,
		enc:   enc,
		model: models[0],
		level: "medium",
		files: newFileOps(),
	}
}

// run writes the whole session and flushes it.
func (g *generator) run() error {
	if err := g.opening(); err != nil {
		return err
	}
	for !g.done() {
		if err := g.turn(); err != nil {
			return err
		}
	}
	if err := g.out.w.Flush(); err != nil {
		return fmt.Errorf("gen: flush: %w", err)
	}
	return nil
}

// done reports whether the session has reached its target size.
func (g *generator) done() bool {
	if g.opts.TargetBytes > 0 {
		return g.out.n >= g.opts.TargetBytes
	}
	return g.stats.Entries >= int64(g.opts.Entries)
}

// fits reports whether n more entries of at most size bytes in all can be written without
// passing the target, so that a tool call and its results are never cut apart.
func (g *generator) fits(n int, size int64) bool {
	if g.opts.TargetBytes > 0 {
		return g.out.n+size <= g.opts.TargetBytes
	}
	return g.stats.Entries+int64(n) <= int64(g.opts.Entries)
}

// sequence runs steps in order until the session is done.
func (g *generator) sequence(steps ...func() error) error {
	for _, step := range steps {
		if g.done() {
			return nil
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// newHead opens an entry of type typ as a child of the leaf, up to maxMs after the previous one.
func (g *generator) newHead(typ string, maxMs int) head {
	t := g.clock.advance(maxMs)
	return head{Type: typ, ID: g.ids.next(), ParentID: g.path.leafID(), Timestamp: jsonl.ISOTime(t)}
}

// nowMs is the current time in epoch milliseconds, as messages store it.
func (g *generator) nowMs() int64 {
	return g.clock.now.UnixMilli()
}

// emit writes entry v, whose id is id, and appends it to the path as kind k.
func (g *generator) emit(id string, k kind, v any) error {
	before := g.out.n
	if err := g.enc.Encode(v); err != nil {
		return fmt.Errorf("gen: write entry %d: %w", g.stats.Entries+1, err)
	}
	g.path.push(id, k, g.out.n-before)
	g.stats.Entries++
	g.sinceBranch++
	g.sinceCompaction++
	return nil
}

// message writes a message entry holding msg, whose head h was opened with newHead.
func (g *generator) message(h head, k kind, msg any) error {
	return g.emit(h.ID, k, messageEntry{head: h, Message: msg})
}

// chance reports true with probability 1/n (never when n <= 0).
func (g *generator) chance(n int) bool {
	return n > 0 && g.rng.IntN(n) == 0
}
