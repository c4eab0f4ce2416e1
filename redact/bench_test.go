package redact

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
)

// benchBytes is the size of the generated session BenchmarkRedact reads.
const benchBytes = 100 << 20

// BenchmarkRedact redacts a generated 100 MB session with the full default
// rule set on one goroutine, writing the output to io.Discard.
func BenchmarkRedact(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 100 MB session")
	}
	path := writeGenerated(b, benchBytes)
	r, err := New(Options{Salt: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		if _, err := r.RedactFile(context.Background(), path, nil, io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
	// On a busy machine wall time includes waiting for a core; CPU time
	// (user+system of the process, GC included) does not.
	cpu := (cpuTime() - cpu0).Seconds()
	b.ReportMetric(float64(info.Size())*float64(b.N)/cpu/1e6, "MB/cpu-s")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func writeGenerated(b *testing.B, size int64) string {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if _, err := gen.Write(w, gen.Options{Seed: 1, TargetBytes: size, BranchEvery: 50, CompactionEvery: 400}); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
