package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeListed(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const listerHeader = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n"

// TestListerBuffers lists a tiny file, then one with a 600 KB line (longer
// than any buffer kept), then one of 3 MB of short lines, then the tiny one
// again: the rows are right, the buffer is sized to the small file, grows
// for the long line and is dropped after it, and the 3 MB file is read
// through the largest buffer kept, so listing many files never keeps more
// than one long line's worth.
func TestListerBuffers(t *testing.T) {
	tiny := writeListed(t, "tiny.jsonl", []byte(listerHeader+`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}`+"\n"))
	withLine := func(name string, long string) string {
		return writeListed(t, name, []byte(listerHeader+
			`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"`+long+`"}}`+"\n"+
			`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":"ok","timestamp":1767225603000}}`))
	}
	long := strings.Repeat("x", 600<<10)
	big := withLine("big.jsonl", long)
	var many strings.Builder
	many.WriteString(listerHeader)
	for many.Len() < 3<<20 {
		many.WriteString(`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}` + "\n")
	}
	many.WriteString(`{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":"ok","timestamp":1767225603000}}`)
	lines := strings.Count(many.String(), "\n")
	manyLines := writeListed(t, "many.jsonl", []byte(many.String()))
	var l Lister
	row, err := l.ListFile(tiny, ListOptions{})
	if err != nil || row.MessageCount != 1 || row.FirstMessage != "hi" {
		t.Fatalf("tiny: %+v, %v", row, err)
	}
	if cap(l.buf) != minBufferBytes {
		t.Errorf("buffer for a %d-byte file: %d bytes, want %d", row.FileSize, cap(l.buf), minBufferBytes)
	}
	row, err = l.ListFile(big, ListOptions{})
	if err != nil || row.MessageCount != 2 || row.FirstMessage != long || row.Modified != "2026-01-01T00:00:03.000Z" {
		t.Fatalf("big: count %d, first message of %d bytes, modified %s, %v", row.MessageCount, len(row.FirstMessage), row.Modified, err)
	}
	if l.buf != nil {
		t.Errorf("a buffer of %d bytes kept after a long line", cap(l.buf))
	}
	row, err = l.ListFile(manyLines, ListOptions{})
	if err != nil || row.MessageCount != lines || row.FirstMessage != "hi" || row.Modified != "2026-01-01T00:00:03.000Z" || cap(l.buf) != keptBufferBytes {
		t.Fatalf("3 MB: count %d (want %d), first message %q, modified %s, buffer %d, %v", row.MessageCount, lines, row.FirstMessage, row.Modified, cap(l.buf), err)
	}
	if row, err = l.ListFile(tiny, ListOptions{}); err != nil || row.MessageCount != 1 {
		t.Fatalf("tiny again: %+v, %v", row, err)
	}
}

// TestListerCompressedAndCwd: a compressed file is ErrCompressed unless
// asked for, then listed as its plain bytes are; a cwd KeepCwd refuses is
// ErrOtherCwd.
func TestListerCompressedAndCwd(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/v3/linear.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var packed bytes.Buffer
	w, err := NewWriter(&packed, Zstd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	plain, zst := writeListed(t, "linear.jsonl", data), writeListed(t, "linear.jsonl.zst", packed.Bytes())
	var l Lister
	want, err := l.ListFile(plain, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.ListFile(zst, ListOptions{}); !errors.Is(err, ErrCompressed) {
		t.Errorf("compressed, not asked for: %v, want ErrCompressed", err)
	}
	got, err := l.ListFile(zst, ListOptions{Compressed: true})
	if err != nil {
		t.Fatal(err)
	}
	got.Path = want.Path
	if *got.Created != *want.Created || got.Modified != want.Modified || got.MessageCount != want.MessageCount || got.FileSize != want.FileSize || got.FirstMessage != want.FirstMessage {
		t.Errorf("compressed: %+v, plain %+v", got, want)
	}
	if _, err := l.ListFile(plain, ListOptions{KeepCwd: func(cwd string) bool { return cwd == "/elsewhere" }}); !errors.Is(err, ErrOtherCwd) {
		t.Errorf("other cwd: %v, want ErrOtherCwd", err)
	}
}

// FuzzNullElement checks the null-block rule of the listing (nullElement,
// which counts brackets over an array the parse has accepted) against
// encoding/json's reading of the same array: the array has a null element
// exactly when one of its elements decodes as null.
func FuzzNullElement(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[ ]`, `[null]`, `[ null ]`, "[{\"a\":1},\t\n null]", `[{"type":"text","text":"x"},null]`,
		`[{"text":"a, null [null"}]`, `[{"text":"\",null"}]`, `[[null],{"n":null}]`, `[1,true,false,"null"]`,
		`[{"a":[null,{"b":null}]},"\u006eull"]`, `[0,[],{},null,[]]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, array string) {
		line := []byte(`{"type":"message","message":{"role":"user","content":` + array + `}}`)
		var ls lineSkimmer
		var s skim
		if !ls.skim(line, &s).OK() {
			return
		}
		content := s.Msg.Content
		if len(content) == 0 || content[0] != '[' {
			return
		}
		var elements []json.RawMessage
		if err := json.Unmarshal(content, &elements); err != nil {
			t.Fatalf("the skimmer accepts %q, encoding/json does not: %v", content, err)
		}
		want := false
		for _, e := range elements {
			want = want || string(e) == "null"
		}
		if got := ls.nullElement(line, cap(line)-cap(content)); got != want {
			t.Errorf("nullElement(%q) = %v, want %v", content, got, want)
		}
	})
}
