package redact

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusByteIdentical: every corpus session without secrets, damaged
// ones included (BOM, CRLF, NUL runs, garbage, a cut last line), comes out
// byte for byte as it went in.
func TestCorpusByteIdentical(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*/*.jsonl")
	if err != nil || len(files) < 15 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	r := newTestRedactor(t, Options{})
	for _, f := range files {
		if strings.Contains(f, "/secrets/") {
			continue
		}
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		st, err := r.RedactFile(context.Background(), f, nil, &out, nil)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !bytes.Equal(in, out.Bytes()) || st.Findings != 0 {
			t.Errorf("%s: output differs (%d findings)", f, st.Findings)
		}
	}
}

// TestGzipStaysGzip redacts a gzip session into a gzip session.
func TestGzipStaysGzip(t *testing.T) {
	plain, err := os.ReadFile("testdata/escaped-secrets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	st, err := newTestRedactor(t, Options{}).RedactFile(context.Background(), path, nil, &out, nil)
	if err != nil || st.Findings == 0 {
		t.Fatalf("%v, %d findings", err, st.Findings)
	}
	zr, err := gzip.NewReader(&out)
	if err != nil {
		t.Fatalf("output is not gzip: %v", err)
	}
	dec, err := io.ReadAll(zr)
	if err != nil || bytes.Count(dec, []byte("\n")) != bytes.Count(plain, []byte("\n")) || bytes.Contains(dec, []byte("WgBXfoHS9TS9AfkLNArp")) {
		t.Fatalf("decompressed output wrong: %v", err)
	}
}

// TestInterrupted stops at a cancelled context.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newTestRedactor(t, Options{}).RedactFile(ctx, secretsSession, nil, io.Discard, nil)
	if err != context.Canceled {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}
