package jsonl_test

import (
	"bytes"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// BenchmarkCheckRequestEveryLeaf checks the request at every leaf of a
// branched generated session with compactions, as validate does: one checker
// decodes each entry once, and every leaf replays its path in memory.
func BenchmarkCheckRequestEveryLeaf(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Options{Seed: 21, TargetBytes: 20 << 20, BranchEvery: 40, CompactionEvery: 400}); err != nil {
		b.Fatal(err)
	}
	ix, closeFn, err := jsonl.IndexFile(jsonl.StdinName, bytes.NewReader(buf.Bytes()))
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	leaves := ix.Leaves()
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	b.Logf("%d entries, %d leaves", ix.Len(), len(leaves))
	for b.Loop() {
		c := jsonl.NewRequestChecker(ix)
		for _, leaf := range leaves {
			if _, err := c.Check(leaf); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCheckRequestActiveLeaf is the check at the active leaf alone.
func BenchmarkCheckRequestActiveLeaf(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Options{Seed: 21, TargetBytes: 20 << 20, BranchEvery: 40, CompactionEvery: 400}); err != nil {
		b.Fatal(err)
	}
	ix, closeFn, err := jsonl.IndexFile(jsonl.StdinName, bytes.NewReader(buf.Bytes()))
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ix.CheckRequest(ix.ActiveLeaf()); err != nil {
			b.Fatal(err)
		}
	}
}
