// Command pitool validates, repairs, compacts, redacts and exports the session
// files of the Pi coding agent.
package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
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

// interruptGrace is how long run has, after the first SIGINT or SIGTERM, to
// wind down (report what was in flight, remove its temporary files) before
// pitool exits anyway: a worker blocked in a read of a FIFO or a pipe that
// never closes does not see the cancelled context.
const interruptGrace = 800 * time.Millisecond

// mainCode is main up to the exit: the memory limit, SIGINT and SIGTERM
// cancelling the run, and run itself. Tests run it as the pitool command.
//
// The first signal cancels run's context (which also passes SIGTERM to a
// child run as another user: privsep.go's childCommand); run then has
// interruptGrace to return. If it has not, or a
// second signal comes, pitool prints "pitool: error: interrupted" (once: not
// if run printed it already) and exits 130 without waiting. A temporary file
// a writer leaves behind is locked by this process only: the next run that
// writes into that folder removes it (safefile.CleanStale).
func mainCode() int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		followLiveHeap(memoryLimit)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &lastWords{w: os.Stderr}
	done := make(chan int, 1)
	go func() { done <- run(ctx, os.Args, os.Stdin, os.Stdout, stderr) }()
	select {
	case code := <-done:
		return code
	case <-sigs:
		cancel() // a child run as a user (privsep) gets SIGTERM from it
	}
	grace := time.NewTimer(interruptGrace)
	defer grace.Stop()
	select {
	case code := <-done:
		return code
	case <-grace.C:
	case <-sigs:
	}
	stderr.close()
	return exitInterrupted
}

// interruptedLine is the line run prints for an interrupted run.
var interruptedLine = []byte("pitool: error: interrupted\n")

// lastWords is pitool's stderr: it remembers whether run has said
// "interrupted", and close says it (if run has not) and keeps run's
// goroutines, still going as pitool exits, from writing more.
type lastWords struct {
	mu     sync.Mutex
	w      io.Writer
	said   bool
	closed bool
}

func (l *lastWords) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return len(p), nil
	}
	if bytes.Contains(p, interruptedLine) {
		l.said = true
	}
	return l.w.Write(p)
}

// Unwrap returns the writer l writes to (progress.IsTerminal asks).
func (l *lastWords) Unwrap() io.Writer { return l.w }

// close prints the interrupted line unless run printed it, then drops
// every later write.
func (l *lastWords) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.said && !l.closed {
		l.w.Write(interruptedLine)
	}
	l.closed = true
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
