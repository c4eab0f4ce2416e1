package jsonl

import (
	"bytes"
	"os"
	"testing"
)

// skimBenchData returns the session named by $PITOOL_SKIM_FILE (default: the
// largest corpus file), at most 64 MB of it in whole lines.
func skimBenchData(b *testing.B) []byte {
	path := os.Getenv("PITOOL_SKIM_FILE")
	if path == "" {
		path = "../testdata/corpus/real/before-compaction.jsonl"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if len(data) > 64<<20 {
		data = data[:bytes.LastIndexByte(data[:64<<20], '\n')+1]
	}
	return data
}

// BenchmarkSkimLine measures the index's per-line parse over the lines of
// skimBenchData.
func BenchmarkSkimLine(b *testing.B) {
	data := skimBenchData(b)
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

// BenchmarkIndexPassInMemory measures the whole sequential index pass
// (scanner, skim, tables) over skimBenchData held in memory: the pass
// itself, without the kernel's copy of the file that BenchmarkIndex in
// bench/ includes. Decoding a few fields per line with goccy/go-json, the
// issue's reference point, is measured the same way: in memory.
func BenchmarkIndexPassInMemory(b *testing.B) {
	data := skimBenchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ix := &Index{Name: "mem", Version: CurrentVersion, ids: newIDTable(), labels: map[string]int32{}, pending: map[int32]string{}}
		if err := ix.scan(NewScanner(bytes.NewReader(data), "mem")); err != nil || ix.Len() == 0 {
			b.Fatal(err, ix.Len())
		}
		ix.link()
	}
}
