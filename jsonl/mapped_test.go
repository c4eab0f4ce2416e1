package jsonl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mapTestFile writes data to a file and maps it.
func mapTestFile(t *testing.T, data []byte) (*os.File, *mapping) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	mapped, err := mapFile(f, len(data))
	if err != nil {
		t.Skipf("files cannot be mapped here: %v", err)
	}
	m := &mapping{data: mapped, file: true}
	t.Cleanup(m.close)
	return f, m
}

// TestMappedIndexEqualsRead indexes a damaged file through a mapping, dropping
// pages every 4 KB, and through reads: the indexes must be the same.
func TestMappedIndexEqualsRead(t *testing.T) {
	defer func(n int) { releaseBytes = n }(releaseBytes)
	releaseBytes = 4096
	data := damagedConcat(t)
	seq := newIndex("-", nil)
	if err := seq.scan(NewScanner(bytes.NewReader(data), "-")); err != nil {
		t.Fatal(err)
	}
	seq.link()
	f, m := mapTestFile(t, data)
	ix := newIndex("-", nil)
	ix.ra = f
	if err := ix.scanMapped(m); err != nil {
		t.Fatal(err)
	}
	ix.link()
	assertSameIndex(t, "mapped", ix, seq)
	if m.released == 0 {
		t.Error("no page was dropped")
	}
}

// TestMappedFileTruncated: a file cut short while it is mapped gives an
// error, not a crash.
func TestMappedFileTruncated(t *testing.T) {
	line := `{"type":"custom","customType":"x","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z"}` + "\n"
	data := []byte(header + strings.Repeat(line, 20000))
	f, m := mapTestFile(t, data)
	if err := os.Truncate(f.Name(), 0); err != nil {
		t.Fatal(err)
	}
	err := newIndex(f.Name(), nil).scanMapped(m)
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("scanMapped on a truncated file: %v", err)
	}
}
