package jsonl

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func scanAll(t *testing.T, input string) []Line {
	t.Helper()
	sc := NewScanner(strings.NewReader(input), "test")
	var lines []Line
	for sc.Scan() {
		l := sc.Line()
		l.Bytes = append([]byte(nil), l.Bytes...)
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestScannerFraming(t *testing.T) {
	lines := scanAll(t, "\xEF\xBB\xBF{\"a\":1}\r\n{\"b\":2}\n{\"c\"")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3", len(lines))
	}
	first, second, last := lines[0], lines[1], lines[2]
	if !first.BOM || !first.CR || string(first.Bytes) != `{"a":1}` || first.Length != 12 {
		t.Errorf("first line framing wrong: %+v %q", first, first.Bytes)
	}
	if second.Offset != 12 || second.Num != 2 || second.BOM || second.CR {
		t.Errorf("second line position wrong: %+v", second)
	}
	if !last.Unterminated || string(last.Bytes) != `{"c"` || last.Offset != 20 {
		t.Errorf("unterminated tail wrong: %+v %q", last, last.Bytes)
	}
}

func TestScannerLongLineIsPositionedError(t *testing.T) {
	input := "{}\n" + strings.Repeat("x", 5000) + "\n{}\n"
	sc := NewScanner(strings.NewReader(input), "big.jsonl")
	sc.SetMaxLineBytes(1000)
	for sc.Scan() {
	}
	var pe *PosError
	if !errors.As(sc.Err(), &pe) || !errors.Is(sc.Err(), ErrLineTooLong) {
		t.Fatalf("want a positioned ErrLineTooLong, got %v", sc.Err())
	}
	if pe.Line != 2 || pe.Offset != 3 || pe.File != "big.jsonl" {
		t.Errorf("error position = %+v, want line 2 at byte 3", pe)
	}
}

func TestScannerLinesLongerThanBuffer(t *testing.T) {
	long := `{"t":"` + strings.Repeat("y", 3*scanBufferBytes) + `"}`
	lines := scanAll(t, long+"\n{}\n")
	if len(lines) != 2 || string(lines[0].Bytes) != long || lines[1].Offset != int64(len(long)+1) {
		t.Fatalf("long line not assembled: %d lines", len(lines))
	}
}

// TestOpenDetectsCompressionByMagic names the files .jsonl whatever they hold.
func TestOpenDetectsCompressionByMagic(t *testing.T) {
	plain, err := os.ReadFile("../testdata/corpus/v3/linear.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"gz.jsonl": gzipBytes(t, plain), "zst.jsonl": zstdBytes(t, plain), "plain.jsonl": plain} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		ix, closeFn, err := IndexFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ctx bytes.Buffer
		if err := ix.WriteView(&ctx, ix.ActiveLeaf(), ViewContext); err != nil {
			t.Fatal(err)
		}
		closeFn()
		if ix.Len() != 135 || !bytes.Contains(ctx.Bytes(), []byte(`"thinkingLevel":"medium"`)) {
			t.Errorf("%s: %d entries, context %d bytes", name, ix.Len(), ctx.Len())
		}
	}
}

func gzipBytes(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func zstdBytes(t *testing.T, b []byte) []byte {
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return zw.EncodeAll(b, nil)
}
