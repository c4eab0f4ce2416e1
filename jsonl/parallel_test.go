package jsonl

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// damagedConcat builds a session from corpus files with damage spread through
// it: extra headers, garbage, a mid-file byte-order mark, CRLF, an unterminated tail.
func damagedConcat(t *testing.T) []byte {
	var b bytes.Buffer
	for _, rel := range []string{"v3/branched.jsonl", "corrupt/garbage-line.jsonl", "v3/linear.jsonl", "corrupt/crlf-bom.jsonl", "corrupt/duplicate-ids.jsonl", "corrupt/truncated-tail.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", rel))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		if !bytes.HasSuffix(data, []byte("\n")) && rel != "corrupt/truncated-tail.jsonl" {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func TestParallelIndexEqualsSequential(t *testing.T) {
	data := damagedConcat(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, data, 0o644)
	defer func(n int64) { chunkBytes = n }(chunkBytes)
	chunkBytes = 37 << 10 // many chunks, cut at odd places

	seq := indexString(t, string(data))
	f, _ := os.Open(path)
	defer f.Close()
	par := &Index{Name: "-", Version: CurrentVersion, ids: newIDTable(), labels: map[string]int32{}, pending: map[int32]string{}, ra: f}
	if err := par.scanParallel(f, int64(len(data)), 3); err != nil {
		t.Fatal(err)
	}
	par.link()

	if par.Len() != seq.Len() || par.Lines != seq.Lines || par.Bytes != seq.Bytes || par.HeaderLine != seq.HeaderLine {
		t.Fatalf("parallel: %d entries %d lines %d bytes header %d; sequential: %d %d %d %d",
			par.Len(), par.Lines, par.Bytes, par.HeaderLine, seq.Len(), seq.Lines, seq.Bytes, seq.HeaderLine)
	}
	if !reflect.DeepEqual(par.nodes, seq.nodes) || !reflect.DeepEqual(par.parents, seq.parents) {
		t.Fatal("parallel and sequential nodes or parents differ")
	}
	if !reflect.DeepEqual(par.Skipped, seq.Skipped) || !reflect.DeepEqual(par.ExtraHeads, seq.ExtraHeads) || !reflect.DeepEqual(par.labels, seq.labels) {
		t.Fatalf("skipped/extra headers/labels differ:\n%v\n%v", par.Skipped, seq.Skipped)
	}
	for i := 0; i < seq.Len(); i++ {
		if par.ID(i) != seq.ID(i) {
			t.Fatalf("entry %d: id %q vs %q", i, par.ID(i), seq.ID(i))
		}
	}
	if len(seq.Skipped) == 0 || len(seq.ExtraHeads) < 3 || !strings.Contains(string(data), "\r\n") {
		t.Fatal("the test input lost its damage")
	}
}
