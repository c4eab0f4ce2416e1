package gen

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Shape names a hostile session shape: not a realistic conversation, but
// the extreme of one dimension (depth, fan-out, entry count, labels, odd
// ids) that memory and time bounds are tested on.
type Shape string

// The shapes WriteShape writes. Each has a header and then Entries entries.
const (
	// ShapeChain is a linear path of user and assistant messages in turn,
	// each the child of the one before, with TextBytes of text each.
	ShapeChain Shape = "chain"
	// ShapeSiblings is one root message and every other entry its child.
	ShapeSiblings Shape = "siblings"
	// ShapeTiny is a chain of the smallest message entries Pi loads and
	// validate passes: a one-character user message each.
	ShapeTiny Shape = "tiny"
	// ShapeLabels is one message and then labels on it, each the child of
	// the one before.
	ShapeLabels Shape = "labels"
	// ShapeSelfParent is a chain in which every other entry's parentId is its
	// own id.
	ShapeSelfParent Shape = "self-parent"
	// ShapeOddIDs is a chain whose ids are not 8 hex characters: long,
	// escaped, non-ASCII and numeric-looking ids, in turn.
	ShapeOddIDs Shape = "odd-ids"
)

// Shapes lists every Shape, in the order the usage text gives them.
var Shapes = []Shape{ShapeChain, ShapeSiblings, ShapeTiny, ShapeLabels, ShapeSelfParent, ShapeOddIDs}

// shapeTimestamp is every shape entry's timestamp: shapes test structure,
// not time.
const shapeTimestamp = `"2026-01-01T00:00:00.000Z"`

// writeShape streams the session of opts.Shape, opts.Entries entries after
// the header, to w.
func writeShape(w io.Writer, opts Options) (Stats, error) {
	entry, ok := shapeEntries[opts.Shape]
	if !ok {
		return Stats{}, fmt.Errorf("gen: unknown shape %q (want one of %s)", opts.Shape, shapeNames())
	}
	if opts.Entries <= 0 {
		return Stats{}, fmt.Errorf("gen: shape %s needs Entries", opts.Shape)
	}
	out := &countingWriter{w: bufio.NewWriterSize(w, writeBufferSize)}
	fmt.Fprintf(out, `{"type":"session","version":3,"id":"%s","timestamp":%s,"cwd":%s}`+"\n",
		shapeSessionID, shapeTimestamp, strconv.Quote(opts.Cwd))
	s := shapeWriter{out: out, text: strings.Repeat("x", opts.TextBytes)}
	for i := range opts.Entries {
		entry(&s, i)
	}
	if err := out.w.Flush(); err != nil {
		return Stats{}, fmt.Errorf("gen: flush: %w", err)
	}
	return Stats{Entries: int64(opts.Entries), Bytes: out.n}, nil
}

// shapeSessionID is the header id of every shape.
const shapeSessionID = "01900000-0000-7000-8000-000000000000"

// shapeEntries writes entry i of each shape.
var shapeEntries = map[Shape]func(s *shapeWriter, i int){
	ShapeChain: func(s *shapeWriter, i int) { s.message(hexID(i), parentOf(i), i%2 == 1) },
	ShapeSiblings: func(s *shapeWriter, i int) {
		s.message(hexID(i), parentIf(i > 0, hexID(0)), false)
	},
	ShapeTiny: func(s *shapeWriter, i int) {
		fmt.Fprintf(s.out, `{"type":"message","id":"%s","parentId":%s,"timestamp":%s,"message":{"role":"user","content":"x"}}`+"\n",
			hexID(i), parentOf(i), shapeTimestamp)
	},
	ShapeLabels: func(s *shapeWriter, i int) {
		if i == 0 {
			s.message(hexID(0), "null", false)
			return
		}
		fmt.Fprintf(s.out, `{"type":"label","id":"%s","parentId":%s,"timestamp":%s,"targetId":"%s","label":"l%d"}`+"\n",
			hexID(i), parentOf(i), shapeTimestamp, hexID(0), i)
	},
	ShapeSelfParent: func(s *shapeWriter, i int) {
		s.message(hexID(i), parentIf(i%2 == 0, strconv.Quote(hexID(i))), false)
	},
	ShapeOddIDs: func(s *shapeWriter, i int) {
		s.message(oddID(i), parentIf(i > 0, oddID(i-1)), i%2 == 1)
	},
}

// shapeWriter writes the entries of one shape.
type shapeWriter struct {
	out  io.Writer
	text string // each message's text
}

// message writes a user message, or an assistant one, with id and the raw
// JSON parent value.
func (s *shapeWriter) message(id, parent string, assistant bool) {
	msg := `{"role":"user","content":"` + s.text + `x","timestamp":1767225600000}`
	if assistant {
		msg = `{"role":"assistant","content":[{"type":"text","text":"` + s.text +
			`y"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop","timestamp":1767225600000}`
	}
	fmt.Fprintf(s.out, `{"type":"message","id":%s,"parentId":%s,"timestamp":%s,"message":%s}`+"\n",
		quoteID(id), parent, shapeTimestamp, msg)
}

// quoteID returns id as a JSON string; ids already quoted (odd ids) pass.
func quoteID(id string) string {
	if strings.HasPrefix(id, `"`) {
		return id
	}
	return `"` + id + `"`
}

// hexID is entry i's id: 8 hex characters, distinct for every i.
func hexID(i int) string { return fmt.Sprintf("%08x", mix32(uint32(i))) }

// parentOf is the raw parentId of entry i of a chain.
func parentOf(i int) string { return parentIf(i > 0, hexID(i-1)) }

// parentIf is the raw parentId: id when named, null otherwise.
func parentIf(named bool, id string) string {
	if !named {
		return "null"
	}
	return quoteID(id)
}

// oddID is entry i's id in ShapeOddIDs, a JSON string that is no 8-hex id:
// in turn 300 characters long, with escapes, non-ASCII, and a number's text.
func oddID(i int) string {
	switch i % 4 {
	case 0:
		return strconv.Quote(strings.Repeat("long", 75) + strconv.Itoa(i))
	case 1:
		return `"id\"\\\u00e9` + strconv.Itoa(i) + `"`
	case 2:
		return `"\u65e5\u672c-` + strconv.Itoa(i) + `"`
	}
	return `"` + strconv.Itoa(i) + `"`
}

// shapeNames lists the shapes for an error message.
func shapeNames() string {
	names := make([]string, len(Shapes))
	for k, s := range Shapes {
		names[k] = string(s)
	}
	return strings.Join(names, ", ")
}
