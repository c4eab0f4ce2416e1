package jsonl

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkSkimLine measures the index's per-line parse over the lines of a
// session named by $PITOOL_SKIM_FILE (default: the largest corpus file).
func BenchmarkSkimLine(b *testing.B) {
	path := os.Getenv("PITOOL_SKIM_FILE")
	if path == "" {
		path = "../testdata/corpus/real/before-compaction.jsonl"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if len(data) > 64<<20 {
		data = data[:bytes.LastIndexByte(data[:64<<20], '\n')]
	}
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var skimmer lineSkimmer
	for b.Loop() {
		for _, l := range lines {
			var s skim
			skimmer.skim(l, &s)
		}
	}
}
