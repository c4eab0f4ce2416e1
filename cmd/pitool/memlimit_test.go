package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMemoryLimitFollowsTheLiveHeap: once the live heap outgrows the floor,
// the limit is raised above it after a collection, so that the collector
// does not run without pause; it never goes below the floor.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const floor = 8 << 20
	debug.SetMemoryLimit(floor)
	stop := followLiveHeap(floor)
	defer func() { stop(); debug.SetMemoryLimit(before) }()
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20) // 64 MiB kept live
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < 64<<20 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < 64<<20 {
		t.Errorf("limit %d with 64 MiB live, want it above the live heap", got)
	}
	runtime.KeepAlive(live)
}
