package exporter

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// benchSession writes a generated session of about size bytes.
func benchSession(b *testing.B, size int64) string {
	b.Helper()
	name := filepath.Join(b.TempDir(), "bench.jsonl")
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	opts := gen.Options{Seed: 1, TargetBytes: size, BranchEvery: 200, CompactionEvery: 1000, Unicode: true}
	if _, err := gen.Write(f, opts); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// BenchmarkExportHTML measures the whole export (index, decode, render,
// write) of a generated 20 MB session, or of $PITOOL_EXPORT_SESSION when set
// (the profile of issue 16 came from the 100 MB linear session of
// scripts/bench-export.sh); bytes/s is of session input.
func BenchmarkExportHTML(b *testing.B) {
	name := os.Getenv("PITOOL_EXPORT_SESSION")
	if name == "" && testing.Short() {
		b.Skip("generates a 20 MB session")
	}
	if name == "" {
		name = benchSession(b, 20<<20)
	}
	b.Run("branch", func(b *testing.B) { benchExport(b, name, ExportHTML, HTMLOptions{}) })
	b.Run("all-branches", func(b *testing.B) { benchExport(b, name, ExportHTML, HTMLOptions{AllBranches: true}) })
}

// BenchmarkExportMarkdown is BenchmarkExportHTML for Markdown, which shows
// the active branch.
func BenchmarkExportMarkdown(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 20 MB session")
	}
	benchExport(b, benchSession(b, 20<<20), ExportMarkdown, HTMLOptions{})
}

// benchExport indexes and exports the session at name once per iteration.
func benchExport(b *testing.B, name string, export func(context.Context, io.Writer, *jsonl.Index, HTMLOptions) error, opts HTMLOptions) {
	info, err := os.Stat(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		ix, closeFn, err := jsonl.IndexFile(name, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := export(context.Background(), io.Discard, ix, opts); err != nil {
			b.Fatal(err)
		}
		closeFn()
	}
	b.ReportMetric((cpuTime(b)-start).Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the user and system CPU time the process has used so far:
// on a shared machine a benchmark's CPU seconds compare builds where its
// wall time does not.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
