package jsonl

import (
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkZZListFolder(b *testing.B) {
	files, _ := filepath.Glob(os.Getenv("LS_DIR") + "/*.jsonl")
	if len(files) == 0 {
		b.Skip()
	}
	var l Lister
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if _, err := l.ListFile(f, ListOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
}
