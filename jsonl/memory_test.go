package jsonl

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"
)

// maxIndexBytesPerEntry bounds what an index keeps per entry of a chain of
// small entries with Pi's ids: issue 16 names at most 64 bytes per entry;
// the index keeps 40.6 (bench/README.md, "The index per entry"; 41.9 on
// one core, where the arrays are not reserved from a chunk), and the bound
// leaves room for the reserve estimate, not for the id text or 8-byte slots
// coming back (52.9 with both; 8-byte references alone, which it lets
// pass, gave 45.9 with power-of-two slots).
const maxIndexBytesPerEntry = 48

// TestIndexBytesPerEntry measures the heap an index of 300,000 chained
// entries with 8-hex ids keeps once built (what grows with the file), and
// fails above maxIndexBytesPerEntry.
func TestIndexBytesPerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 300,000-entry session")
	}
	const entries = 300_000
	path := filepath.Join(t.TempDir(), "chain.jsonl")
	writeChain(t, path, entries)
	var ix *Index
	var closeIndex func() error
	perEntry := retainedBytes(func() {
		var err error
		if ix, closeIndex, err = IndexFile(path, nil); err != nil {
			t.Fatal(err)
		}
	}) / entries
	defer closeIndex()
	if ix.Len() != entries {
		t.Fatalf("%d entries indexed, want %d", ix.Len(), entries)
	}
	t.Logf("%d entries: %.1f bytes per entry (%s)", entries, perEntry, ix.memoryParts())
	runtime.KeepAlive(ix)
	if perEntry > maxIndexBytesPerEntry {
		t.Errorf("the index keeps %.1f bytes per entry, want at most %d", perEntry, maxIndexBytesPerEntry)
	}
}

// memoryParts describes what the index's arrays hold per entry.
func (ix *Index) memoryParts() string {
	n := float64(len(ix.nodes))
	text := 0
	for _, c := range ix.ids.chunks {
		text += cap(c)
	}
	return fmt.Sprintf("nodes %.1f, parents %.1f, id refs %.1f, id text %.1f, slots %.1f",
		float64(cap(ix.nodes))*float64(unsafe.Sizeof(node{}))/n, float64(4*cap(ix.parents))/n,
		float64(4*cap(ix.ids.refs)+8*cap(ix.ids.flags)+8*cap(ix.ids.texts))/n, float64(text)/n, float64(4*len(ix.ids.slots))/n)
}

// writeChain writes a session of n chained user messages with random 8-hex
// ids, as Pi writes them.
func writeChain(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, `{"type":"session","version":3,"id":"m","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`)
	r := rand.New(rand.NewSource(7))
	parent := "null"
	for range n {
		id := fmt.Sprintf("%08x", r.Uint32())
		fmt.Fprintf(w, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hello","timestamp":1}}`+"\n", id, parent)
		parent = `"` + id + `"`
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// retainedBytes returns how much more heap is live after fn than before.
func retainedBytes(fn func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}
