package jsonl

import (
	"strings"
	"testing"
)

// TestThreads checks the order and drawing of Pi's threaded /resume view:
// a clone under its parent (three spaces in, as Pi draws it), a fork of the clone under it, roots and siblings
// by the newest activity in their subtree, and a loop listed, not lost.
func TestThreads(t *testing.T) {
	l := func(path, parent, modified string) *Listing {
		return &Listing{Path: "/s/" + path, ParentSessionPath: parent, Modified: modified}
	}
	listings := []*Listing{ // newest first, as ls sorts them
		l("fork-of-clone", "/s/clone", "2026-01-09T00:00:00.000Z"),
		l("other", "", "2026-01-08T00:00:00.000Z"),
		l("clone2", "/s/root", "2026-01-07T00:00:00.000Z"),
		l("clone", "/s/root", "2026-01-06T00:00:00.000Z"),
		l("root", "", "2026-01-01T00:00:00.000Z"),
		l("loop-a", "/s/loop-b", "2025-01-02T00:00:00.000Z"),
		l("loop-b", "/s/loop-a", "2025-01-01T00:00:00.000Z"),
		l("orphan", "/s/gone", "2024-01-01T00:00:00.000Z"),
	}
	var got []string
	for _, r := range Threads(listings) {
		got = append(got, r.Prefix+strings.TrimPrefix(listings[r.Index].Path, "/s/"))
	}
	want := []string{
		"root",
		"   ├─ clone",
		"   │  └─ fork-of-clone",
		"   └─ clone2",
		"other",
		"loop-b",
		"   └─ loop-a",
		"orphan",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("threads:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
