package repair_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// BenchmarkValidateJoinedLine validates a session whose entries were all
// written on one line (a writer that lost its newlines): 20,000 joined
// entries, about 6 MB. Salvage reads them one after another, so its cost
// per byte must not grow with the line.
func BenchmarkValidateJoinedLine(b *testing.B) {
	var line []byte
	parent := "null"
	for k := range 20000 {
		id := fmt.Sprintf("%08x", k)
		line = fmt.Appendf(line, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"%s"}}`, id, parent, strings.Repeat("x", 200))
		parent = `"` + id + `"`
	}
	text := append([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`+"\n"), line...)
	text = append(text, '\n')
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := repair.Validate(context.Background(), bytes.NewReader(text), "joined.jsonl", repair.ValidateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Entries != 20000 {
			b.Fatalf("validate found %d entries, want 20000", rep.Entries)
		}
	}
}
