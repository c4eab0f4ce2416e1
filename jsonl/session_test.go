package jsonl_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// TestEveryCorpusFileIsASession: every file Pi wrote, however damaged, and
// its gzip and zstd copies, pass the session check.
func TestEveryCorpusFileIsASession(t *testing.T) {
	files, _ := filepath.Glob(testref.Corpus("*/*.jsonl"))
	if len(files) != 20 {
		t.Fatalf("found %d corpus files, want 20 (v3, real, corrupt, secrets)", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		if err := jsonl.CheckSessionFile(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for kind, b := range compressed(t, data) {
			if err := checkBytes(t, b); err != nil {
				t.Errorf("%s (%s): %v", name, kind, err)
			}
		}
	}
}

const (
	sHeader = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}` + "\n"
	sEntry  = `{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"a"}}` + "\n"
)

// sessionCases are damaged or unusual files the check must accept.
var sessionCases = map[string]string{
	"blank lines only":      "\n\n  \n",
	"header after blanks":   "\n\r\n" + sHeader,
	"NUL run, then entries": strings.Repeat("\x00", 4096) + "\n" + sEntry,
	"v1 entry, no header":   `{"type":"message","timestamp":"2025-11-20T23:33:01.550Z","message":{"role":"user","content":"hi"}}` + "\n",
	"garbage, then entry":   "}{ torn\n" + sEntry,
	"cut first entry":       `{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"` + strings.Repeat("x", 200<<10) + "\"}}\n",
	"bare header":           `{"type":"session"}`,
}

// notSessionCases are files the check must refuse, with the reason it gives.
var notSessionCases = map[string]struct{ data, reason string }{
	"fine-tuning JSONL": {`{"prompt":"say hi","completion":"hi"}` + "\n" + `{"prompt":"2+2","completion":"4"}` + "\n",
		`no line is a Pi entry: line 1 is a JSON object without "type"`},
	"notes":       {"# notes\nbuy milk\n", "no line is a Pi entry: line 1 is not JSON"},
	"JSON array":  {`[{"type":"message","timestamp":"t","message":{}}]` + "\n", "no line is a Pi entry: line 1 is a JSON array, not an object"},
	"other types": {`{"type":"prompt","text":"x"}` + "\n", `no line is a Pi entry: line 1 has type "prompt"`},
	"long type":   {`{"type":"` + strings.Repeat("s3cr3t", 20) + `"}`, `no line is a Pi entry: line 1 has type "s3cr3ts3cr3ts3cr3ts3cr3t"…`},
	"Codex-like":  {`{"type":"message","role":"user","content":[]}` + "\n", `no line is a Pi entry: line 1 has type "message" but no "timestamp"`},
	"NULs only":   {strings.Repeat("\x00", 100), "no line is a Pi entry: only NUL bytes"},
	"tar-like":    {"notes.jsonl\x00\x00\x000000644\x00" + sHeader, "binary data at byte 11"},
	"many lines":  {strings.Repeat("text\n", 100) + sHeader, "no Pi entry in the first 64 lines: line 1 is not JSON"},
	"long line":   {strings.Repeat("a", 100<<10) + "\n" + sHeader, "no Pi entry in the first 64 KiB: line 1 is not a JSON object"},
}

func TestSessionCheck(t *testing.T) {
	for name, data := range sessionCases {
		for kind, b := range compressed(t, []byte(data)) {
			if err := checkBytes(t, b); err != nil {
				t.Errorf("%s (%s): %v", name, kind, err)
			}
		}
	}
	for name, c := range notSessionCases {
		for kind, b := range compressed(t, []byte(c.data)) {
			err := checkBytes(t, b)
			ns, ok := jsonl.IsNotSession(err)
			if !ok || ns.Reason != c.reason {
				t.Errorf("%s (%s): got %v, want reason %q", name, kind, err, c.reason)
			}
		}
	}
}

// TestBinaryIsNotASession: an executable, plain or compressed, is refused
// at its first bytes.
func TestBinaryIsNotASession(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Skip(err)
	}
	for kind, b := range compressed(t, data[:min(len(data), 1<<20)]) {
		err := checkBytes(t, b)
		if ns, ok := jsonl.IsNotSession(err); !ok || !strings.HasPrefix(ns.Reason, "binary data at byte ") {
			t.Errorf("%s: got %v, want binary data", kind, err)
		}
	}
}

// TestCheckLeavesTheStreamWhole: after the check, the reader still yields
// every byte, for plain, gzip and zstd input alike.
func TestCheckLeavesTheStreamWhole(t *testing.T) {
	data, err := os.ReadFile(testref.Corpus("v3/linear.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for kind, b := range compressed(t, data) {
		src, err := jsonl.Open("-", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := src.CheckSession(); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if _, err := got.ReadFrom(src.Reader()); err != nil || !bytes.Equal(got.Bytes(), data) {
			t.Errorf("%s: reader gives %d bytes (%v), want %d", kind, got.Len(), err, len(data))
		}
		src.Close()
	}
}

func TestNotSessionErrorText(t *testing.T) {
	err := &jsonl.NotSessionError{File: "x.jsonl", Reason: "binary data at byte 0"}
	if got, want := err.Error(), "x.jsonl: not a Pi session (binary data at byte 0)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// checkBytes runs the check on data read from standard input.
func checkBytes(t *testing.T, data []byte) error {
	t.Helper()
	src, err := jsonl.Open("-", bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer src.Close()
	return src.CheckSession()
}

// compressed returns data as it is, gzipped and zstd-compressed.
func compressed(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(data)
	gw.Close()
	zw, err := zstd.NewWriter(&zs)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	zw.Close()
	return map[string][]byte{"plain": data, "gzip": gz.Bytes(), "zstd": zs.Bytes()}
}

// BenchmarkCheckSessionFile measures the check as every command pays it:
// open, read the first SniffBytes, judge, close.
func BenchmarkCheckSessionFile(b *testing.B) {
	for _, rel := range []string{"v3/linear.jsonl", "corrupt/missing-header.jsonl"} {
		f := testref.Corpus(rel)
		b.Run(filepath.Base(rel), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := jsonl.CheckSessionFile(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSessionHeader: a header on the first line that is not blank makes a
// session, compressed too; a headerless session, a torn header or another
// file is none.
func TestSessionHeader(t *testing.T) {
	head := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p","parentSession":"/a/b.jsonl"}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(head + "\n"))
	zw.Close()
	for name, c := range map[string]struct {
		in   string
		want bool
	}{
		"plain":    {head + "\n{}\n", true},
		"blank":    {"\n \n" + head + "\n", true},
		"gzip":     {gz.String(), true},
		"entry":    {`{"type":"message","id":"a","parentId":null}` + "\n" + head + "\n", false},
		"torn":     {head[:40], false},
		"markdown": {"# a page\n", false},
		"empty":    {"", false},
	} {
		h, ok := jsonl.SessionHeader(name, strings.NewReader(c.in))
		if ok != c.want || (ok && (h.ID != "s1" || h.ParentSession != "/a/b.jsonl")) {
			t.Errorf("%s: SessionHeader = %+v, %v; want %v", name, h, ok, c.want)
		}
	}
}

// TestFileHeader: a regular file's header is read, compressed too; a FIFO
// (nothing writes to it: an open that waited would hang the test), a
// folder, a missing file and standard input have none.
func TestFileHeader(t *testing.T) {
	dir := t.TempDir()
	head := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n"
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs)
	zw.Write([]byte(head))
	zw.Close()
	plain, packed, fifo := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl.zst"), filepath.Join(dir, "c.jsonl")
	os.WriteFile(plain, []byte(head+"{}\n"), 0o600)
	os.WriteFile(packed, zs.Bytes(), 0o600)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{plain, packed} {
		if h, ok := jsonl.FileHeader(name); !ok || h.ID != "s1" || h.Timestamp != "2026-01-01T00:00:00.000Z" {
			t.Errorf("FileHeader(%s) = %+v, %v; want the header", name, h, ok)
		}
	}
	for _, name := range []string{fifo, dir, filepath.Join(dir, "missing.jsonl"), jsonl.StdinName} {
		if h, ok := jsonl.FileHeader(name); ok {
			t.Errorf("FileHeader(%s) = %+v; want none", name, h)
		}
	}
}
