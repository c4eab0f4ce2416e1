package redact

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
)

// benchBytes is the size of the generated session BenchmarkRedact reads.
const benchBytes = 100 << 20

// BenchmarkRedact redacts a generated 100 MB session with the full default
// rule set on one goroutine, writing the output to io.Discard.
func BenchmarkRedact(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 100 MB session")
	}
	path := writeGenerated(b, benchBytes)
	r, err := New(Options{Salt: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := r.RedactFile(context.Background(), path, nil, io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func writeGenerated(b *testing.B, size int64) string {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if _, err := gen.Write(w, gen.Options{Seed: 1, TargetBytes: size, BranchEvery: 50, CompactionEvery: 400}); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
