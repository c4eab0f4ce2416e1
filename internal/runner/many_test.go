package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestSort: a FIFO found in a folder is special, a named file is named, the
// rest are paths to open in order.
func TestSort(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "c.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	targets, err := Expand([]string{dir, b}, ExpandOptions{EveryPath: true})
	if err != nil {
		t.Fatal(err)
	}
	s := Sort(targets)
	if !slices.Equal(s.Paths, []string{a, b, b}) || !slices.Equal(s.Named, []string{b}) ||
		len(s.Special) != 1 || s.Special[0].File != fifo {
		t.Errorf("Sort = %+v", s)
	}
}

// TestBatched: every index is worked on once, whatever the batch size.
func TestBatched(t *testing.T) {
	for _, n := range []int{0, 1, 7, 5000} {
		seen := make([]atomic.Int32, n)
		err := Batched(context.Background(), n, func() func(int) {
			return func(i int) { seen[i].Add(1) }
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d worked on %d times", n, i, c)
			}
		}
	}
}

// TestListed: a path is named when the user gave it, and Paths gives the
// paths back in order.
func TestListed(t *testing.T) {
	got := Listed([]string{"d/a.jsonl", "b.jsonl"}, []string{"d", "b.jsonl"})
	if got[0].Named || !got[1].Named || !slices.Equal(Paths(got), []string{"d/a.jsonl", "b.jsonl"}) {
		t.Errorf("Listed = %+v", got)
	}
}
