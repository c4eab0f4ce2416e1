package gen

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestHostileShapes: each shape indexes, as Pi loads it, to the tree it names.
func TestHostileShapes(t *testing.T) {
	const n = 50
	hex8 := regexp.MustCompile(`^[0-9a-f]{8}$`)
	for _, shape := range Shapes {
		var buf bytes.Buffer
		st, err := Write(&buf, Options{Shape: shape, Entries: n, TextBytes: 10})
		if err != nil {
			t.Fatal(err)
		}
		ix, err := jsonl.IndexReaderAt(string(shape), bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if ix.Len() != n || st.Entries != n || st.Bytes != int64(buf.Len()) || ix.SkippedCount != 0 {
			t.Errorf("%s: %d entries indexed, %d skipped, stats %+v, want %d", shape, ix.Len(), ix.SkippedCount, st, n)
		}
		leaves, path := len(ix.Leaves()), pathLen(ix)
		switch shape {
		case ShapeChain, ShapeTiny, ShapeLabels, ShapeOddIDs:
			if leaves != 1 || path != n {
				t.Errorf("%s: %d leaves, path of %d, want one chain of %d", shape, leaves, path, n)
			}
		case ShapeSiblings:
			if leaves != n-1 || path != 2 {
				t.Errorf("%s: %d leaves, path of %d, want %d siblings of one root", shape, leaves, path, n-1)
			}
		case ShapeSelfParent:
			if _, err := ix.Path(0); err == nil {
				t.Errorf("%s: the first entry, its own parent, has a path", shape)
			}
		}
		if odd := shape == ShapeOddIDs; odd == hex8.MatchString(ix.ID(0)) || odd == hex8.MatchString(ix.ID(n-1)) {
			t.Errorf("%s: ids %q and %q", shape, ix.ID(0), ix.ID(n-1))
		}
	}
}

// pathLen is the length of the path to the active leaf, -1 when it loops.
func pathLen(ix *jsonl.Index) int {
	path, err := ix.Path(ix.ActiveLeaf())
	if err != nil {
		return -1
	}
	return len(path)
}
