package runner

import (
	"context"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
)

// Sorted is what a reader of many files does with targets: the files to
// open, which of them were named, and the files found in folders that are
// never opened.
type Sorted struct {
	Paths   []string                 // the files to open, in order
	Named   []string                 // those of Paths the user named
	Special []*jsonl.NotSessionError // found in a folder and not regular (a FIFO, a device): skipped
}

// Sort sorts targets into a Sorted.
func Sort(targets []Target) Sorted {
	var s Sorted
	for _, t := range targets {
		if ns := t.Special(); ns != nil {
			s.Special = append(s.Special, ns)
			continue
		}
		if t.Named {
			s.Named = append(s.Named, t.Path)
		}
		s.Paths = append(s.Paths, t.Path)
	}
	return s
}

// Batched calls the work newWorker returns for each target index in
// [0, n), on every core, in no order; each worker has its own state (a
// reader reused across files). A worker takes batchSize(n) targets at a
// time. It stops early when ctx is cancelled (ctx.Err()).
func Batched(ctx context.Context, n int, newWorker func() func(i int)) error {
	batch := batchSize(n)
	return parallel.Each(ctx, (n+batch-1)/batch, 0, func() func(k int) {
		work := newWorker()
		return func(k int) {
			for i := k * batch; i < min(n, (k+1)*batch); i++ {
				work(i)
			}
		}
	})
}

// batchSize is how many targets a worker takes at a time from n: one at a
// time would hand each of 10,000 tiny files from goroutine to goroutine, a
// wake-up each, while a batch per worker would leave one worker with the
// last big files; about 64 batches per worker keeps both costs small.
func batchSize(n int) int {
	return max(1, n/(64*parallel.Workers(0)))
}
