// Command pitool validates, repairs, compacts, redacts and exports the session
// files of the Pi coding agent.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
)

// memoryLimit is pitool's default soft memory limit (GOMEMLIMIT), its floor:
// small and mid-sized sessions never reach it and run with the collector's
// target. GOMEMLIMIT overrides it, and followLiveHeap.
const memoryLimit = 200 << 20

// limitHeadroom sets how far above the live heap the limit follows it: by
// 1/limitHeadroom of it, a collection each time the heap grows by a quarter.
// A limit fixed below the live heap had the collector run without pause:
// compact --plan took 24.9 s of CPU on 2,000,000 tiny entries against 1.4 s
// on 500,000, and 10.1 s with the limit following (306 MB peak against
// 344 MB); context on 4.6 M entries 8.3 s against 4.3 s (344 MB, 395 MB).
const limitHeadroom = 4

func main() { os.Exit(mainCode()) }

// mainCode is main up to the exit: the memory limit, SIGINT and SIGTERM
// cancelling the run, and run itself. Tests run it as the pitool command.
func mainCode() int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		followLiveHeap(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
}

// gcSentinel is the object whose cleanup marks a collection.
type gcSentinel [32]byte

// followLiveHeap raises the soft memory limit after each collection to the
// live heap plus 1/limitHeadroom of it, never below floor, so that a session
// whose index alone outgrows the floor is collected in proportion to its
// work, not continually. It lasts until stop is called (pitool: the process).
func followLiveHeap(floor int64) (stop func()) {
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var rearm func()
	rearm = func() {
		// The cleanup of an object nothing references runs after the next
		// collection; each one arms the next. The object is not one the
		// tiny allocator would batch with others (16 bytes or more).
		runtime.AddCleanup(new(gcSentinel), func(struct{}) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			live := int64(sample[0].Value.Uint64())
			debug.SetMemoryLimit(max(floor, live+live/limitHeadroom))
			rearm()
		}, struct{}{})
	}
	rearm()
	return func() { stopped.Store(true) }
}
