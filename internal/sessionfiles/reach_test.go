package sessionfiles

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReach(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "proj")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(sub, "a.jsonl")
	other := filepath.Join(dir, "notes.txt")
	for _, p := range []string{a, other} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.jsonl")
	got := Reach(context.Background(), []string{"-", dir, a, missing})
	want := []string{dir, a, a, missing}
	want = slices.Compact(want)
	if !slices.Equal(got, want) {
		t.Errorf("Reach = %q, want %q", got, want)
	}
}
