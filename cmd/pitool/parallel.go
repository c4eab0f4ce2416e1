package main

import (
	"context"
	"runtime"
	"sync"
)

// eachInParallel calls a work function for every index in [0, n) on at
// most GOMAXPROCS workers, each with its own function from newWorker (so
// that a worker's buffers are its own), and returns once all calls have
// returned: ctx's error when it was cancelled first (no new call starts
// then), else nil.
func eachInParallel(ctx context.Context, n int, newWorker func() func(i int)) error {
	workers := min(n, runtime.GOMAXPROCS(0))
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
