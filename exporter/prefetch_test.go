package exporter

import (
	"path/filepath"
	"testing"
)

// TestBatchStartsCoverTheSequence: the decoding batches of every corpus
// session's tree order cover it in order, each of at most batchEntries
// entries and batchBytes bytes of lines, or one longer line alone.
func TestBatchStartsCoverTheSequence(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(corpus, "*", "*.jsonl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus sessions: %v", err)
	}
	for _, name := range names {
		ix := indexFile(t, name)
		seq := treeOrder(ix)
		starts := batchStarts(ix, seq)
		if len(seq) == 0 {
			if len(starts) != 1 {
				t.Errorf("%s: empty sequence, batches %v", name, starts)
			}
			continue
		}
		if starts[0] != 0 || starts[len(starts)-1] != len(seq) {
			t.Fatalf("%s: batches %v do not span 0..%d", name, starts, len(seq))
		}
		for b := range len(starts) - 1 {
			from, to := starts[b], starts[b+1]
			bytes := 0
			for _, i := range seq[from:to] {
				bytes += ix.LineLen(i)
			}
			switch {
			case to <= from:
				t.Fatalf("%s: batch %d is empty: %v", name, b, starts)
			case to-from > batchEntries:
				t.Errorf("%s: batch %d holds %d entries", name, b, to-from)
			case bytes > batchBytes && to-from > 1:
				t.Errorf("%s: batch %d holds %d bytes in %d entries", name, b, bytes, to-from)
			}
		}
	}
}
