package compactor

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
)

// benchSession returns a generated 20 MB session cached in the temporary folder.
func benchSession(b *testing.B, name string, opts gen.Options) string {
	if testing.Short() {
		b.Skip("generated benchmark sessions are skipped with -short")
	}
	path := filepath.Join(os.TempDir(), "pitool-compactor-bench-"+name+".jsonl")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if _, err := gen.Write(w, opts); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil || f.Close() != nil {
		b.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkPlan measures --plan on one file (MB/s of session read): index,
// path, projection, token estimate and preparation.
func BenchmarkPlan(b *testing.B) {
	b.Run("linear-20MB", func(b *testing.B) {
		benchPlan(b, benchSession(b, "linear-20MB", gen.Options{Seed: 1, TargetBytes: 20 << 20}))
	})
	b.Run("branchy-20MB", func(b *testing.B) {
		benchPlan(b, benchSession(b, "branchy-20MB", gen.Options{Seed: 2, TargetBytes: 20 << 20, BranchEvery: 80, CompactionEvery: 300}))
	})
	b.Run("tool-heavy-20MB", func(b *testing.B) {
		benchPlan(b, benchSession(b, "tool-heavy-20MB", gen.Options{Seed: 3, TargetBytes: 20 << 20, ToolHeavy: true}))
	})
}

func benchPlan(b *testing.B, path string) {
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	opts := Options{Settings: DefaultSettings, Plan: true}
	start := cpuTime()
	for b.Loop() {
		if out := CompactFile(context.Background(), path, opts); out.Status == Failed {
			b.Fatal(out.Err)
		}
	}
	// wall-clock MB/s says more about a shared machine's load than about the
	// code; bytes per CPU-second of the process (GC included) does not
	b.ReportMetric(float64(info.Size())*float64(b.N)/1e6/(cpuTime()-start).Seconds(), "MB/cpu-s")
}

// cpuTime is the user plus system time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
