//go:build unix

package jsonl_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// BenchmarkListFile lists one generated session of 25 MB (the size of each
// of bench-ls.sh's big5g files) and one of a few KB (tiny10k's), reporting
// the bytes listed per second and the CPU time per file (user + system, in
// cpu-ns/op), which a loaded machine stretches far less than the wall time.
func BenchmarkListFile(b *testing.B) {
	for _, size := range []struct {
		name   string
		target int64
		heavy  bool
	}{{"tiny", 4 << 10, false}, {"25MB", 25 << 20, false}, {"25MB-tool-heavy", 25 << 20, true}} {
		b.Run(size.name, func(b *testing.B) {
			var buf bytes.Buffer
			if _, err := gen.Write(&buf, gen.Options{Seed: 1, TargetBytes: size.target, ToolHeavy: size.heavy, ToolResultBytes: 200}); err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(b.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				b.Fatal(err)
			}
			var l jsonl.Lister
			b.SetBytes(int64(buf.Len()))
			b.ReportAllocs()
			start := cpuTime(b)
			for b.Loop() {
				if _, err := l.ListFile(path, jsonl.ListOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time (user + system) the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
