//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
)

// BenchmarkNightlySecondRun is nightly's second run over 10,000 tiny
// sessions (2 entries each, as scripts/bench-nightly-tiny.sh makes them),
// nothing changed since the first, run in this process: what the run costs
// beyond starting pitool (issue 28). It reports the process's CPU per run
// (user+sys, "cpu-ms/op"), which the machine's load disturbs less than the
// time.
func BenchmarkNightlySecondRun(b *testing.B) {
	dir := b.TempDir()
	sessions := filepath.Join(dir, "sessions")
	var one bytes.Buffer
	if _, err := gen.Write(&one, gen.Options{Seed: 1, Entries: 2}); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for i := range 10000 {
		path := filepath.Join(sessions, fmt.Sprintf("p%d", i%100), fmt.Sprintf("2026-01-01T00-00-00-000Z_s%d.jsonl", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, one.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			b.Fatal(err)
		}
	}
	time.Sleep(time.Second) // the files' ctimes settle (nightstate.Settle)
	report := filepath.Join(dir, "r.json")
	nightly := func() {
		if code, _, errOut := runPitool(context.Background(), "nightly", "--report", report, sessions); code != 0 {
			b.Fatalf("nightly: exit %d: %s", code, errOut)
		}
	}
	nightly()
	b.ResetTimer()
	before := cpuTime()
	for range b.N {
		nightly()
	}
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.StopTimer()
	if rep := readLoadReport(b, report); rep.Remembered != 10000 {
		b.Fatalf("the last run remembered %d of 10000 files", rep.Remembered)
	}
}

// cpuTime is the CPU this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
