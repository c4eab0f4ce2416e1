package repair_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/repair"
)

// benchSession writes a generated 100 MB session into a temporary folder:
// gensession's defaults (-size 100MB -seed 1), or with PITOOL_BENCH_SHAPE=tree
// a branched, compacted session with Unicode text.
func benchSession(b *testing.B) (string, int64) {
	b.Helper()
	if testing.Short() {
		b.Skip("the 100 MB benchmark session is skipped with -short")
	}
	path := filepath.Join(b.TempDir(), "100mb.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	opts := gen.Options{Seed: 1, TargetBytes: 100 << 20}
	if os.Getenv("PITOOL_BENCH_SHAPE") == "tree" {
		opts.BranchEvery, opts.CompactionEvery, opts.Unicode = 400, 2000, true
	}
	st, err := gen.Write(w, opts)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	return path, st.Bytes
}

// BenchmarkValidate streams validate over a 100 MB session.
func BenchmarkValidate(b *testing.B) {
	path, size := benchSession(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		rep, err := repair.ValidateFile(context.Background(), path, nil, repair.ValidateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if rep.HasProblems() {
			b.Fatalf("the generated session has findings: %+v", rep.Findings[0])
		}
	}
}

// BenchmarkRepairTornTail repairs a 100 MB session whose last line is torn:
// everything before it is copied as bytes.
func BenchmarkRepairTornTail(b *testing.B) {
	path, size := benchSession(b)
	if err := os.Truncate(path, size-200); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "out.jsonl")
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		os.Remove(out)
		os.Remove(out + repair.QuarantineSuffix)
		res, err := repair.RepairFile(context.Background(), path, nil, repair.Options{Output: out, Force: true})
		if err != nil {
			b.Fatal(err)
		}
		if res.BytesCopied < size-100<<10 {
			b.Fatalf("copied only %d of %d bytes raw", res.BytesCopied, size)
		}
	}
}
