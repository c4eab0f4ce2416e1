package jsonl_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestTreeRowsSiblingsOldestFirst: siblings out of time order are sorted,
// stably (equal timestamps keep file order), and a family already in order
// keeps it; rows go depth-first under each root in file order, and OnPath
// marks the active leaf's path.
func TestTreeRowsSiblingsOldestFirst(t *testing.T) {
	lines := []string{`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`}
	add := func(id, parent, ts string) {
		if parent != "null" {
			parent = `"` + parent + `"`
		}
		lines = append(lines, fmt.Sprintf(`{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:%s.000Z","message":{"role":"user","content":"x"}}`, id, parent, ts))
	}
	add("r", "null", "00")
	add("a", "r", "05") // r's children: a, b, c, d in file order, b oldest, a and c equal
	add("b", "r", "01")
	add("c", "r", "05")
	add("d", "r", "09")
	add("e", "b", "02") // b's children in time order: e, f
	add("f", "b", "03")
	add("g", "null", "10") // a second root
	add("h", "f", "11")    // the active leaf: r, b, f, h
	ix, err := jsonl.IndexReaderAt("t.jsonl", strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := ix.Tree()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := range tree.Rows() {
		row := fmt.Sprintf("%s/%d/%d", ix.ID(r.Entry), r.Depth, r.Forks)
		if r.OnPath {
			row += "*"
		}
		got = append(got, row)
	}
	want := []string{"r/0/0*", "b/1/1*", "e/2/2", "f/2/2*", "h/3/2*", "a/1/1", "c/1/1", "d/1/1", "g/0/0"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}
