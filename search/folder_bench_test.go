package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSearchFolder reports the MB/s of search -c over the folder named
// by PITOOL_SEARCH_DIR (scripts/bench-search-rg.sh's plain folder), one
// file after another; skipped when unset.
func BenchmarkSearchFolder(b *testing.B) {
	dir := os.Getenv("PITOOL_SEARCH_DIR")
	if dir == "" {
		b.Skip("PITOOL_SEARCH_DIR is not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	m, err := Compile("retry", false, false)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if _, err := searchFile(context.Background(), m, &Options{CountOnly: true}, f, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
