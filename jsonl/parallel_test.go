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
	par := newIndex("-", f)
	if err := par.scanParallel(f, int64(len(data)), 3); err != nil {
		t.Fatal(err)
	}
	par.link()

	assertSameIndex(t, "parallel", par, seq)
	if seq.SkippedCount == 0 || len(seq.ExtraHeads) < 3 || !strings.Contains(string(data), "\r\n") {
		t.Fatal("the test input lost its damage")
	}
}

// assertSameIndex fails unless got, indexed some other way, equals want,
// indexed sequentially.
func assertSameIndex(t *testing.T, name string, got, want *Index) {
	t.Helper()
	if got.Len() != want.Len() || got.Lines != want.Lines || got.Bytes != want.Bytes || got.HeaderLine != want.HeaderLine {
		t.Fatalf("%s: %d entries %d lines %d bytes header %d; sequential: %d %d %d %d", name,
			got.Len(), got.Lines, got.Bytes, got.HeaderLine, want.Len(), want.Lines, want.Bytes, want.HeaderLine)
	}
	if !reflect.DeepEqual(got.nodes, want.nodes) || !reflect.DeepEqual(got.parents, want.parents) {
		t.Fatalf("%s: nodes or parents differ from the sequential index", name)
	}
	if got.SkippedCount != want.SkippedCount || got.ExtraHeadCount != want.ExtraHeadCount {
		t.Fatalf("%s: %d skipped %d extra headers; sequential: %d %d", name, got.SkippedCount, got.ExtraHeadCount, want.SkippedCount, want.ExtraHeadCount)
	}
	if !reflect.DeepEqual(got.Skipped, want.Skipped) || !reflect.DeepEqual(got.ExtraHeads, want.ExtraHeads) || !reflect.DeepEqual(got.labels, want.labels) {
		t.Fatalf("%s: skipped/extra headers/labels differ:\n%v\n%v", name, got.Skipped, want.Skipped)
	}
	if !reflect.DeepEqual(got.Header, want.Header) {
		t.Fatalf("%s: header %+v, want %+v", name, got.Header, want.Header)
	}
	for i := 0; i < want.Len(); i++ {
		if got.ID(i) != want.ID(i) {
			t.Fatalf("%s: entry %d: id %q vs %q", name, i, got.ID(i), want.ID(i))
		}
	}
}

// TestSkippedLinesAreCounted: a run of blank lines far longer than the
// sample costs a counter, in the sequential and the parallel scan alike.
func TestSkippedLinesAreCounted(t *testing.T) {
	data := header + entry("a", "") + strings.Repeat("\n", 50000) + "garbage\n" + entry("b", "a") + strings.Repeat("\n", 3)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(data), 0o644)
	defer func(n int64) { chunkBytes = n }(chunkBytes)
	chunkBytes = 7 << 10
	seq := indexString(t, data)
	if seq.SkippedCount != 50004 || len(seq.Skipped) != MaxSampledLines || seq.Skipped[0].Num != 3 || seq.Lines != 50007 {
		t.Fatalf("skipped %d, sample %d, lines %d", seq.SkippedCount, len(seq.Skipped), seq.Lines)
	}
	f, _ := os.Open(path)
	defer f.Close()
	par := newIndex("-", f)
	if err := par.scanParallel(f, int64(len(data)), 3); err != nil {
		t.Fatal(err)
	}
	par.link()
	assertSameIndex(t, "parallel", par, seq)
}
