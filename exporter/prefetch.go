package exporter

import (
	"context"
	"sync"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
)

// decodeWorkers is how many goroutines decode the entries of the sequence
// ahead of the transcript. Decoding (the entry's JSON, its message's and its
// content's) was most of the work of the one goroutine that makes the items
// (issue 16): on its own it bounded the export's wall time, with a second
// core left to the page workers.
const decodeWorkers = 2

// decoded is the entry at one position of the sequence, decoded ahead of
// the transcript. Its errors are kept for the transcript to return where it
// would have met them decoding the entry itself.
type decoded struct {
	e   *jsonl.Entry
	err error // decoding the entry
	// A message entry's message (msgErr when it does not decode), and the
	// content of a message or custom_message entry: its joined text and
	// blocks (contentOf).
	msg    jsonl.Message
	msgErr error
	text   string
	blocks []jsonl.Block
	calls  []*ToolCall // an assistant message's tool calls, in block order
}

// decodeAt decodes the entry at position k of the sequence, its message and
// content, and an assistant message's tool calls. It runs on the decoding goroutines: it reads nothing of the
// transcript that changes while they run.
func (t *Transcript) decodeAt(k int) *decoded {
	d := &decoded{}
	if d.e, d.err = t.decode(t.seq[k]); d.err != nil {
		return d
	}
	switch d.e.Type {
	case jsonl.TypeMessage:
		var blocksOK bool
		d.msg, d.blocks, blocksOK, d.msgErr = messageOf(d.e)
		switch {
		case blocksOK:
			d.text = blocksText(d.blocks)
		case d.msgErr == nil:
			d.text, d.blocks = contentOf(d.msg.Content)
		}
		if d.msg.Role == jsonl.RoleAssistant {
			d.calls = t.toolCalls(d.blocks)
		}
	case jsonl.TypeCustomMessage:
		d.text, d.blocks = contentOf(d.e.Obj.Get("content"))
	}
	return d
}

// A batch is the unit of work of the decoding goroutines: consecutive
// positions of the sequence, up to batchEntries entries or batchBytes bytes
// of their lines (a longer line is a batch of its own). Handing entries over
// one by one cost more in goroutine switches than most entries take to
// decode, and kept the stages waiting on each other: on the 100 MB linear
// session of scripts/bench-export.sh the export kept 1.5 of 2 cores busy.
const (
	batchEntries = 64
	batchBytes   = 256 << 10
)

// batchStarts returns the first position of each batch of seq, and len(seq)
// last.
func batchStarts(ix *jsonl.Index, seq []int) []int {
	starts := []int{0}
	entries, bytes := 0, 0
	for k, i := range seq {
		if entries > 0 && (entries == batchEntries || bytes+ix.LineLen(i) > batchBytes) {
			starts = append(starts, k)
			entries, bytes = 0, 0
		}
		entries++
		bytes += ix.LineLen(i)
	}
	if len(seq) > 0 {
		starts = append(starts, len(seq))
	}
	return starts
}

// decodeStream delivers the decoded entries of the sequence in order, from
// position 0, decoded by decodeWorkers goroutines a few batches ahead.
type decodeStream struct {
	next   int        // the position the stream delivers next
	batch  []*decoded // what is left of the batch being delivered
	in     <-chan []*decoded
	ctx    context.Context // ends the stream early when cancelled
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// startDecoding starts decoding the sequence ahead; stop ends it.
func (t *Transcript) startDecoding(ctx context.Context) *decodeStream {
	ctx, cancel := context.WithCancel(ctx)
	in := make(chan []*decoded, decodeWorkers)
	s := &decodeStream{in: in, ctx: ctx, cancel: cancel}
	starts := batchStarts(t.ix, t.seq)
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		defer close(in)
		parallel.InOrder(ctx, len(starts)-1, decodeWorkers, func(b int) []*decoded {
			batch := make([]*decoded, 0, starts[b+1]-starts[b])
			for k := starts[b]; k < starts[b+1]; k++ {
				batch = append(batch, t.decodeAt(k))
			}
			return batch
		}, func(_ int, batch []*decoded) {
			select {
			case in <- batch:
			case <-ctx.Done():
			}
		})
	}()
	return s
}

// take returns the next position's entry; ok is false when the stream ended
// first (its context was cancelled).
func (s *decodeStream) take() (d *decoded, ok bool) {
	if len(s.batch) == 0 {
		if s.batch, ok = <-s.in; !ok {
			return nil, false
		}
	}
	d, s.batch = s.batch[0], s.batch[1:]
	s.next++
	return d, true
}

// stop ends the decoding and waits for its goroutines: no entry is read
// after it returns.
func (s *decodeStream) stop() {
	s.cancel()
	for range s.in { // drain what was decoded
	}
	s.done.Wait()
}
