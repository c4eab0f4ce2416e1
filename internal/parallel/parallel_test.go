package parallel

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestInOrderBoundsWaitingResults: while the first item is slow, the others
// may run ahead by at most jobs*Window items, and every item is emitted
// once, in order.
func TestInOrderBoundsWaitingResults(t *testing.T) {
	const n, jobs = 200, 2
	var mu sync.Mutex
	started, emitted, most := 0, 0, 0
	release := make(chan struct{})
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	var order []int
	InOrder(context.Background(), n, jobs, func(i int) int {
		mu.Lock()
		started++
		most = max(most, started-emitted)
		mu.Unlock()
		if i == 0 {
			<-release
		}
		return i
	}, func(i, v int) {
		mu.Lock()
		emitted++
		mu.Unlock()
		order = append(order, v)
	})
	if most > jobs*Window {
		t.Errorf("%d items started and not emitted at once, want at most %d", most, jobs*Window)
	}
	if len(order) != n {
		t.Fatalf("emitted %d items, want %d", len(order), n)
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("item %d emitted as %d", i, v)
		}
	}
}

// TestEachCallsEveryIndexOnBoundedWorkers: every index is worked once, on
// at most the workers asked for, each worker made once.
func TestEachCallsEveryIndexOnBoundedWorkers(t *testing.T) {
	const n, workers = 500, 3
	seen := make([]atomic.Int32, n)
	var made, running, most atomic.Int32
	err := Each(context.Background(), n, workers, func() func(int) {
		made.Add(1)
		return func(i int) {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			seen[i].Add(1)
			running.Add(-1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if c := seen[i].Load(); c != 1 {
			t.Fatalf("index %d worked %d times", i, c)
		}
	}
	if made.Load() > workers || most.Load() > workers {
		t.Errorf("%d workers made, %d at once, want at most %d", made.Load(), most.Load(), workers)
	}
}

// TestEachStopsWhenCancelled: a cancelled context starts no new call and is
// returned.
func TestEachStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	err := Each(ctx, 1000, 1, func() func(int) {
		return func(i int) {
			if calls.Add(1) == 10 {
				cancel()
			}
		}
	})
	if err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if c := calls.Load(); c >= 1000 || c < 10 {
		t.Errorf("%d calls after cancelling at the 10th", c)
	}
}
