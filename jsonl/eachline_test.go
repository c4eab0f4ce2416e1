package jsonl

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sourceLines opens path and collects its lines by EachLine, as copies.
func sourceLines(t *testing.T, path string) []Line {
	t.Helper()
	src, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var lines []Line
	err = src.EachLine(func(l Line) error {
		l.Bytes = bytes.Clone(l.Bytes)
		lines = append(lines, l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestEachLineMappedEqualsScanned: a file large enough to be mapped gives
// the lines, framing and all (BOM, CRLF, no final newline), that a Scanner
// reads from it; so does a small one, which is read.
func TestEachLineMappedEqualsScanned(t *testing.T) {
	line := `{"type":"custom","customType":"x","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z"}`
	big := "\ufeff" + header + strings.Repeat(line+"\n", mapMinBytes/len(line)) + line + "\r\n\n" + line
	for name, data := range map[string]string{"mapped": big, "read": big[:4096]} {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if src, _ := Open(path, nil); src != nil {
			_, mapped := src.mapPlain()
			src.Close()
			if mapped != (name == "mapped") {
				t.Fatalf("%s: mapped is %v", name, mapped)
			}
		}
		got := sourceLines(t, path)
		var want []Line
		sc := NewScanner(strings.NewReader(data), path)
		for sc.Scan() {
			l := sc.Line()
			l.Bytes = bytes.Clone(l.Bytes)
			want = append(want, l)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines, the scanner reads %d", name, len(got), len(want))
		}
		for k := range got {
			g, w := got[k], want[k]
			if !bytes.Equal(g.Bytes, w.Bytes) || g.Num != w.Num || g.Offset != w.Offset || g.BOM != w.BOM || g.CR != w.CR || g.Unterminated != w.Unterminated {
				t.Fatalf("%s: line %d is %+v, the scanner's %+v", name, k+1, g, w)
			}
		}
	}
}

// TestEachLineStopsAndFaults: fn's error ends the walk and is returned; a
// mapped file cut short while it is read gives an error, not a crash.
func TestEachLineStopsAndFaults(t *testing.T) {
	line := `{"type":"custom","customType":"x","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z"}` + "\n"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(header+strings.Repeat(line, 40000)), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	stop := errors.New("stop")
	n := 0
	err = src.EachLine(func(l Line) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Fatalf("stopped after %d lines with %v", n, err)
	}
	src2, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	err = src2.EachLine(func(l Line) error {
		if l.Num == 2 {
			return os.Truncate(path, 0)
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("EachLine over a file truncated under it: %v", err)
	}
}
