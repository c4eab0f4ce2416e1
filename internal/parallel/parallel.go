// Package parallel runs work over the items of a batch (the files of a
// folder) on a bounded number of workers: Each when the order of the work
// does not matter, InOrder when the results must come out in item order, as
// batch tables and reports print them.
package parallel

import (
	"context"
	"runtime"
	"sync"
)

// Workers is the number of workers for a request of n: n itself when it is
// at least 1, else one per processor (GOMAXPROCS).
func Workers(n int) int {
	if n >= 1 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Each calls a work function for every index in [0, n) on at most
// Workers(workers) goroutines, each with its own function from newWorker (so
// that a worker's buffers are its own), and returns once all calls have
// returned: ctx's error when it was cancelled first (no new call starts
// then), else nil.
func Each(ctx context.Context, n, workers int, newWorker func() func(i int)) error {
	workers = min(n, Workers(workers))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWorker()
			for i := range next {
				work(i)
			}
		}()
	}
	var err error
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	return err
}

// Window is how many items per worker InOrder may start ahead of the oldest
// one not yet emitted. Results are emitted in item order, so a slow item
// holds back those after it; the window bounds how many finished results
// wait for it, and with them the batch's memory, whatever the number of
// items.
const Window = 4

// InOrder runs work on items 0..n-1 with Workers(jobs) workers and calls
// emit in item order. At most jobs*Window items are started and not yet
// emitted. After ctx is cancelled no new item starts; items already started
// finish and are emitted.
func InOrder[T any](ctx context.Context, n, jobs int, work func(int) T, emit func(int, T)) {
	jobs = Workers(jobs)
	slots := make(chan struct{}, jobs*Window) // one per item started and not yet emitted
	idx := make(chan int)
	res := make(chan indexed[T], jobs)
	go feedItems(ctx, n, slots, idx)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				res <- indexed[T]{i, work(i)}
			}
		}()
	}
	go func() { wg.Wait(); close(res) }()
	emitInOrder(res, func(i int, v T) {
		emit(i, v)
		<-slots
	})
}

type indexed[T any] struct {
	i   int
	val T
}

// feedItems sends 0..n-1 on idx, each once a slot is free, until ctx is
// cancelled, then closes idx.
func feedItems(ctx context.Context, n int, slots chan<- struct{}, idx chan<- int) {
	defer close(idx)
	for i := 0; i < n; i++ {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		select {
		case idx <- i:
		case <-ctx.Done():
			return
		}
	}
}

// emitInOrder emits the results as they complete a prefix of the items.
func emitInOrder[T any](res <-chan indexed[T], emit func(int, T)) {
	pending := map[int]T{}
	next := 0
	for r := range res {
		pending[r.i] = r.val
		for v, ok := pending[next]; ok; v, ok = pending[next] {
			delete(pending, next)
			emit(next, v)
			next++
		}
	}
}
