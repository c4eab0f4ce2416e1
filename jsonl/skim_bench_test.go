package jsonl

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	json "github.com/goccy/go-json"
)

// skimBenchData returns the session named by $PITOOL_SKIM_FILE, at most 64 MB
// of it in whole lines; by default the corpus's real and v3 sessions, one
// after another.
func skimBenchData(b *testing.B) []byte {
	path := os.Getenv("PITOOL_SKIM_FILE")
	if path == "" {
		return corpusBenchData(b)
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

// corpusBenchData returns the sessions of the corpus's real and v3 folders,
// concatenated.
func corpusBenchData(b testing.TB) []byte {
	var data []byte
	for _, dir := range []string{"real", "v3"} {
		paths, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", dir, "*.jsonl"))
		if err != nil || len(paths) == 0 {
			b.Fatal("no corpus sessions in", dir, err)
		}
		for _, path := range paths {
			file, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			if len(file) > 0 && file[len(file)-1] != '\n' {
				file = append(file, '\n')
			}
			data = append(data, file...)
		}
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
	defer reportCPUThroughput(b, int64(len(data)))()
	for b.Loop() {
		for _, l := range lines {
			var s skim
			skimmer.skim(l, &s)
		}
	}
}

// BenchmarkSkimPortable is BenchmarkSkimLine on the portable path, the one
// processors without AVX2 (arm64 among them) take.
func BenchmarkSkimPortable(b *testing.B) {
	defer portable()()
	BenchmarkSkimLine(b)
}

// BenchmarkIndexPassPortable is BenchmarkIndexPassInMemory on the portable
// path.
func BenchmarkIndexPassPortable(b *testing.B) {
	defer portable()()
	BenchmarkIndexPassInMemory(b)
}

// BenchmarkIndexPassInMemory measures the whole sequential index pass
// (line framing, skim, tables) over skimBenchData held in memory, read in
// place as a mapped file is: the pass itself, without the kernel's work of
// mapping the file that BenchmarkIndex in bench/ includes. This is how
// BenchmarkGoccyFewFields, the reference point, is measured.
func BenchmarkIndexPassInMemory(b *testing.B) {
	data := skimBenchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPUThroughput(b, int64(len(data)))()
	for b.Loop() {
		ix := newIndex("mem", nil)
		if err := ix.scan(&Scanner{name: "mem", mapped: &mapping{data: data}, max: MaxLineBytes}); err != nil || ix.Len() == 0 {
			b.Fatal(err, ix.Len())
		}
		ix.link()
	}
}

// BenchmarkGoccyFewFields is the reference point for the index pass:
// goccy/go-json decoding only type, id and parentId of each line of
// skimBenchData into a struct, in memory.
func BenchmarkGoccyFewFields(b *testing.B) {
	data := skimBenchData(b)
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPUThroughput(b, int64(len(data)))()
	for b.Loop() {
		for _, l := range lines {
			var e struct {
				Type     string  `json:"type"`
				ID       string  `json:"id"`
				ParentID *string `json:"parentId"`
			}
			if err := json.Unmarshal(l, &e); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkStringMap measures the string map alone (mapBlocks and its
// checks) on one 16 KB window of skimBenchData, held in cache: the vector
// code's own speed, without the memory traffic of a whole file.
func BenchmarkStringMap(b *testing.B) {
	data := skimBenchData(b)[:windowBytes]
	var m stringMap
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		m.build(data)
	}
}

// BenchmarkStringMapPortable is BenchmarkStringMap on the portable path.
func BenchmarkStringMapPortable(b *testing.B) {
	defer portable()()
	BenchmarkStringMap(b)
}
