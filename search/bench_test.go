package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
)

// benchFile writes a 20 MB generated session and returns its path.
func benchFile(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Options{Seed: 1, TargetBytes: 20 << 20, Unicode: true}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkSearch reports the MB/s of one file's search, for a rare word,
// a common one, and each with case folded.
func BenchmarkSearch(b *testing.B) {
	path := benchFile(b)
	st, _ := os.Stat(path)
	for _, c := range []struct {
		name, pattern string
		regex, fold   bool
	}{
		{"rare", "tree(\"config", false, false},
		{"common", "retry", false, false},
		{"rare-i", "TREE(\"CONFIG", false, true},
		{"common-i", "ERROR", false, true},
		{"regexp", "fail(ed|ure)", true, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, err := Compile(c.pattern, c.regex, c.fold)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			for i := 0; i < b.N; i++ {
				if _, err := searchFile(context.Background(), m, &Options{CountOnly: true}, path, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
