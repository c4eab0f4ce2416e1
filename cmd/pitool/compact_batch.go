package main

import (
	"context"
	"sync"
	"time"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// target is one file a batch command works on.
type target struct {
	path    string
	idle    time.Duration          // --min-idle that applies to it
	outside bool                   // found through a symlink that leads out of the named folder
	root    string                 // the path named that it was found under
	named   bool                   // named on the command line, not found in a folder
	special *jsonl.NotSessionError // found in a folder, not a regular file: never opened
}

// batchTargets expands paths into the files of this shard. Files named on the
// command line get idle 0 and files found in folders defaultIdle, unless
// --min-idle was given (set).
func batchTargets(paths []string, sh shard, minIdle time.Duration, set bool) ([]target, error) {
	var out []target
	for _, p := range paths {
		files, err := sessionfiles.Expand([]string{p})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !sh.takes(shardKey(f.Path)) {
				continue
			}
			idle := defaultFolderIdle
			if f.Named {
				idle = 0
			}
			if set {
				idle = minIdle
			}
			out = append(out, target{path: f.Path, idle: idle, named: f.Named, outside: f.Outside, root: p, special: f.NotRegular()})
		}
	}
	return out, nil
}

// shardKey is what --shard splits files by: the file's name without its
// folder and suffixes (sessionfiles.FileStem), which for Pi is the session's
// start time and id. Unlike a path, it is the same whatever path reaches the
// folder (a symlink, another mount point, a relative or absolute path),
// whether the file is named or found in a folder, and before and after
// nightly archives x.jsonl as x.jsonl.zst: every machine of a fleet puts a
// session in the same one of the N shards.
func shardKey(path string) string { return sessionfiles.FileStem(path) }

type indexed[T any] struct {
	i   int
	val T
}

// batchWindow is how many items per worker may be started ahead of the
// oldest one not yet emitted. Results are emitted in item order, so a slow
// item holds back those after it; the window bounds how many finished
// results wait for it, and with them the batch's memory, whatever the
// number of items.
const batchWindow = 4

// runBatch runs work on items 0..n-1 with jobs workers and calls emit in item
// order. At most jobs*batchWindow items are started and not yet emitted. After
// ctx is cancelled no new item starts; items already started finish and are
// emitted.
func runBatch[T any](ctx context.Context, n, jobs int, work func(int) T, emit func(int, T)) {
	jobs = max(jobs, 1)
	slots := make(chan struct{}, jobs*batchWindow) // one per item started and not yet emitted
	idx := make(chan int)
	res := make(chan indexed[T], jobs)
	go feedItems(ctx, n, slots, idx)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
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
