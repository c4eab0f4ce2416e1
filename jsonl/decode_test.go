package jsonl

import (
	"bytes"
	"fmt"
	"io"
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

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	ra    io.ReaderAt
	bytes int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.ra.ReadAt(p, off)
	c.bytes += int64(n)
	return n, err
}

// TestDecodeReadsLittleMoreThanItsEntries decodes, in file order, entries
// of a 4 MB session first far apart (one in 40, in pairs of neighbours, as
// the request check reads back context edits), then all of them: the sparse
// reads must cost little more than their entries (a window of a megabyte at
// each pair read 149 MB back from a 100 MB session, issue 28), and the
// whole walk little more than the file, in few reads.
func TestDecodeReadsLittleMoreThanItsEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString(header)
	parent := "null"
	for i := 0; b.Len() < 4*readWindow; i++ {
		id := fmt.Sprintf("e%05d", i)
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"%s"}}`+"\n", id, parent, strings.Repeat("x", 1000+i%500))
		parent = `"` + id + `"`
	}
	text := []byte(b.String())
	src := &countingReaderAt{ra: bytes.NewReader(text)}
	ix, err := IndexReaderAt("s.jsonl", src)
	if err != nil {
		t.Fatal(err)
	}
	src.bytes = 0
	var want int64
	for i := 0; i+1 < ix.Len(); i += 40 {
		for _, k := range []int{i, i + 1} {
			e, err := ix.Decode(k)
			if err != nil {
				t.Fatal(err)
			}
			want += int64(len(e.Raw))
		}
	}
	if src.bytes > 8*want {
		t.Errorf("decoding %d bytes of entries far apart read %d bytes", want, src.bytes)
	}
	src.bytes = 0
	for i := range ix.Len() {
		if _, err := ix.Decode(i); err != nil {
			t.Fatal(err)
		}
	}
	if size := int64(len(text)); src.bytes > size+2*readWindow {
		t.Errorf("decoding every entry of %d bytes in file order read %d bytes", size, src.bytes)
	}
}
