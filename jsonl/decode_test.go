package jsonl

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestRawLinesOutliveTheWindow decodes every entry of a 3 MB session (three
// read windows, entries from 20 bytes of text to one larger than a window)
// in file order, keeping them, then again in a shuffled order and from four
// goroutines at once: each entry's Raw must be its line's exact bytes, and
// those decoded first must still be after the window was refilled under
// them (the window's buffer is reused).
func TestRawLinesOutliveTheWindow(t *testing.T) {
	var b strings.Builder
	b.WriteString(header)
	var lines []string
	parent := ""
	for i := 0; b.Len() < 3*readWindow; i++ {
		n := 20 + i*37%3000
		if i == 700 {
			n = readWindow + 5000
		}
		id := fmt.Sprintf("e%05d", i)
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		line := `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"` + strings.Repeat(string(rune('a'+i%26)), n) + `"}}`
		lines = append(lines, line)
		b.WriteString(line + "\n")
		parent = id
	}
	name := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(name, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ix, closeFn, err := IndexFile(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if ix.Len() != len(lines) {
		t.Fatalf("indexed %d entries of %d", ix.Len(), len(lines))
	}
	decode := func(i int) *Entry {
		e, err := ix.Decode(i)
		if err != nil {
			t.Error(err)
			return nil
		}
		if !bytes.Equal(e.Raw, []byte(lines[i])) {
			t.Errorf("entry %d decoded as %.40q…, not its line", i, e.Raw)
		}
		return e
	}
	kept := make([]*Entry, ix.Len())
	for i := range kept {
		kept[i] = decode(i)
	}
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(ix.Len()) {
		decode(i)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < ix.Len(); i += 4 {
				decode(i)
			}
		})
	}
	wg.Wait()
	for i, e := range kept {
		if e != nil && !bytes.Equal(e.Raw, []byte(lines[i])) {
			t.Fatalf("entry %d, decoded first, changed to %.40q… as later ones were read", i, e.Raw)
		}
	}
}
