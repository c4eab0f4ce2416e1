package repair

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// Upper bounds of what the index and validation keep per entry; the
// measured figures are in bench/README.md ("Memory bounded by entries").
const (
	maxIndexBytesPerEntry    = 100
	maxValidateBytesPerEntry = 300
	// maxModelBytesBeyondIndex bounds what validation's model keeps per
	// object beyond the index it feeds (the side tables).
	maxModelBytesBeyondIndex = 40
)

// TestMemoryPerEntry measures the heap the index and validation keep per
// entry of a generated session (what stays live once the pass is done, so
// what grows with the file).
func TestMemoryPerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 200,000-entry session")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	st := writeSession(t, path, gen.Options{Seed: 3, Entries: 200_000, BranchEvery: 200, CompactionEvery: 500, ToolResultBytes: 200})
	var ix *jsonl.Index
	var closeIndex func() error
	perIndex := retained(func() {
		var err error
		if ix, closeIndex, err = jsonl.IndexFile(path, nil); err != nil {
			t.Fatal(err)
		}
	}) / float64(ix.Len())
	defer closeIndex()
	var m *model
	perModel := retained(func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if m, err = scanModel(context.Background(), f, f, path, st.Bytes, &findings{report: &Report{}, max: -1, count: map[string]int{}}, nil); err != nil {
			t.Fatal(err)
		}
	}) / float64(m.n)
	runtime.KeepAlive(m)
	m = nil
	var a *analysed
	perValidate := retained(func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, a, err = validate(context.Background(), f, f, path, st.Bytes, ValidateOptions{forRepair: true}); err != nil {
			t.Fatal(err)
		}
	}) / float64(a.m.n)
	t.Logf("%d entries, %d bytes: index %.0f bytes per entry, validation's model %.0f (with its index), validation %.0f (what repair keeps: the model, the request index and its problems)",
		ix.Len(), st.Bytes, perIndex, perModel, perValidate)
	runtime.KeepAlive(ix)
	runtime.KeepAlive(a)
	if perIndex > maxIndexBytesPerEntry || perValidate > maxValidateBytesPerEntry || perModel-perIndex > maxModelBytesBeyondIndex {
		t.Errorf("index %.0f (max %d), validation %.0f (max %d), model beyond the index %.0f (max %d) bytes per entry",
			perIndex, maxIndexBytesPerEntry, perValidate, maxValidateBytesPerEntry, perModel-perIndex, maxModelBytesBeyondIndex)
	}
}

// TestBlankLinesCostNothing: what the index and validation keep of a
// header and 5,000,000 blank lines is a few records, not one per line.
func TestBlankLinesCostNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	data := append([]byte(`{"type":"session","version":3,"id":"m","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`+"\n"), make([]byte, 5_000_000)...)
	for i := len(data) - 5_000_000; i < len(data); i++ {
		data[i] = '\n'
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	data = nil
	var ix *jsonl.Index
	byIndex := retained(func() {
		var closeIndex func() error
		var err error
		if ix, closeIndex, err = jsonl.IndexFile(path, nil); err != nil {
			t.Fatal(err)
		}
		closeIndex()
	})
	var a *analysed
	byValidate := retained(func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, a, err = validate(context.Background(), f, f, path, 5_000_090, ValidateOptions{forRepair: true}); err != nil {
			t.Fatal(err)
		}
	})
	runtime.KeepAlive(ix)
	runtime.KeepAlive(a)
	t.Logf("5,000,000 blank lines: index keeps %.0f bytes, validation %.0f", byIndex, byValidate)
	if ix == nil || ix.SkippedCount != 5_000_000 || a == nil || len(a.m.dirty) != 1 || byIndex > 2<<20 || byValidate > 2<<20 {
		t.Fatalf("index keeps %.0f bytes, validation %.0f", byIndex, byValidate)
	}
}

func writeSession(t *testing.T, path string, opts gen.Options) gen.Stats {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	st, err := gen.Write(w, opts)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// retained returns the heap bytes still live after fn, which keeps what it
// builds reachable.
func retained(fn func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}
