package sessionfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWalk: the walk of a folder of 2,000 session files in 20
// folders, as nightly takes it (a stat of each file).
func BenchmarkWalk(b *testing.B) {
	root := b.TempDir()
	for i := range 2000 {
		dir := filepath.Join(root, fmt.Sprintf("p%d", i%20))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("2026-01-01T00-00-00-000Z_s%d.jsonl", i)), []byte("{}\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		files, err := Expand([]string{root})
		if err != nil || len(files) != 2000 {
			b.Fatalf("%d files, %v", len(files), err)
		}
	}
}
