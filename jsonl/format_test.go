package jsonl

import "testing"

// TestCompressionForName: an output's format comes from its name; standard
// output is plain.
func TestCompressionForName(t *testing.T) {
	for name, want := range map[string]Compression{
		"-": Plain, "out.jsonl": Plain, "out": Plain, "a.gz/out.jsonl": Plain,
		"out.jsonl.gz": Gzip, "x.gz": Gzip, "out.jsonl.zst": Zstd, "dir/s.zst": Zstd,
	} {
		if got := CompressionForName(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
