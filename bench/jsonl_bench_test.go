package bench

import (
	"io"
	"os"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// Session100MB is the 100 MB synthetic session the benchmarks share: branches,
// compactions, and large tool results.
var Session100MB = gen.Options{Seed: 1, TargetBytes: 100 << 20, BranchEvery: 200, CompactionEvery: 500, ToolResultBytes: 4000}

func indexOnce(b *testing.B, path string) *jsonl.Index {
	ix, closeFn, err := jsonl.IndexFile(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeFn() })
	return ix
}

func fileSize(b *testing.B, path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return info.Size()
}

// BenchmarkIndex measures the one-pass offset index (MB/s) on a real corpus
// file and on the 100 MB synthetic session.
func BenchmarkIndex(b *testing.B) {
	b.Run("real/large-session", func(b *testing.B) { benchIndex(b, "../testdata/corpus/real/large-session.jsonl") })
	b.Run("synthetic-100MB", func(b *testing.B) { benchIndex(b, Session(b, "session-100MB", Session100MB)) })
}

func benchIndex(b *testing.B, path string) {
	size := fileSize(b, path)
	b.SetBytes(size)
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		ix, closeFn, err := jsonl.IndexFile(path, nil)
		if err != nil || ix.Len() == 0 {
			b.Fatal(err)
		}
		closeFn()
	}
	reportCPUThroughput(b, start, size)
}

// BenchmarkPathWalk measures the walk from the leaf of a 1,000,000-entry chain
// to its root; the ns/entry metric is the figure that matters.
func BenchmarkPathWalk(b *testing.B) {
	ix := indexOnce(b, Chain(b, 1_000_000))
	b.ReportAllocs()
	for b.Loop() {
		path, err := ix.Path(ix.ActiveLeaf())
		if err != nil || len(path) != 1_000_000 {
			b.Fatal(err, len(path))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/entry")
}

// Linear100MB is a 100 MB session with no compaction and no branch: its whole
// content is the context, the worst case for context building.
var Linear100MB = gen.Options{Seed: 2, TargetBytes: 100 << 20, ToolResultBytes: 4000}

// BenchmarkContext measures the whole context command, index, selection and
// the streamed context view, on a compacted and on a linear 100 MB session.
func BenchmarkContext(b *testing.B) {
	b.Run("compacted-100MB", func(b *testing.B) { benchContext(b, Session(b, "session-100MB", Session100MB)) })
	b.Run("linear-100MB", func(b *testing.B) { benchContext(b, Session(b, "linear-100MB", Linear100MB)) })
}

func benchContext(b *testing.B, path string) {
	b.SetBytes(fileSize(b, path))
	b.ReportAllocs()
	for b.Loop() {
		ix, closeFn, err := jsonl.IndexFile(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.WriteView(io.Discard, ix.ActiveLeaf(), jsonl.ViewContext); err != nil {
			b.Fatal(err)
		}
		closeFn()
	}
}
