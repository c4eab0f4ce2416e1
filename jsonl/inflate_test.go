package jsonl

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// bomb writes a compressed file of members × 1 MiB of newlines: the same
// small member repeated, so a gigabyte-sized bomb is made in no time.
func bomb(t *testing.T, comp Compression, members int) string {
	t.Helper()
	var member bytes.Buffer
	newlines := bytes.Repeat([]byte{'\n'}, 1<<20)
	switch comp {
	case Gzip:
		zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
		zw.Write(newlines)
		zw.Close()
	case Zstd:
		zw, _ := zstd.NewWriter(&member)
		zw.Write(newlines)
		zw.Close()
	}
	path := filepath.Join(t.TempDir(), "bomb.jsonl."+map[Compression]string{Gzip: "gz", Zstd: "zst"}[comp])
	head := compress(t, comp, header)
	data := append(head, bytes.Repeat(member.Bytes(), members)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func compress(t *testing.T, comp Compression, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWriter(&b, comp)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, text)
	w.Close()
	return b.Bytes()
}

// TestDecompressionBomb: 2 GiB of newlines in a small .gz or .zst stop at
// the limit, quickly, with the named error, both streamed and spooled.
func TestDecompressionBomb(t *testing.T) {
	for _, comp := range []Compression{Gzip, Zstd} {
		path := bomb(t, comp, 2048)
		start := time.Now()
		_, closer, err := IndexFile(path, nil)
		if err == nil {
			closer()
			t.Fatalf("%v: a bomb was indexed", comp)
		}
		if !errors.Is(err, ErrDecompressionLimit) || !strings.HasPrefix(err.Error(), path+": decompresses to more than ") {
			t.Fatalf("%v: %v", comp, err)
		}
		src, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(io.Discard, src.Reader())
		src.Close()
		if !errors.Is(err, ErrDecompressionLimit) {
			t.Fatalf("%v streamed: %v", comp, err)
		}
		t.Logf("%v: %d bytes on disk refused in %v: %v", comp, fileSize(t, path), time.Since(start), err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestDecompressLimitEnv: the environment variable replaces the limits.
func TestDecompressLimitEnv(t *testing.T) {
	t.Setenv(DecompressLimitEnv, "1000")
	path := bomb(t, Gzip, 1)
	if _, _, err := IndexFile(path, nil); !errors.Is(err, ErrDecompressionLimit) || !strings.Contains(err.Error(), "more than 1000 bytes") {
		t.Fatalf("limit from the environment not applied: %v", err)
	}
}

// TestTruncatedStream: a compressed file cut short yields every byte its
// decompressor recovers, then a clean end, and says it was truncated.
func TestTruncatedStream(t *testing.T) {
	var text strings.Builder
	text.WriteString(header)
	for i := 0; text.Len() < 4<<20; i++ {
		text.WriteString(entry("e"+strings.Repeat("x", i%7)+string(rune('a'+i%26)), ""))
	}
	for _, comp := range []Compression{Gzip, Zstd} {
		data := compress(t, comp, text.String())
		for _, cut := range []int{len(data) / 2, len(data) - 2} {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			os.WriteFile(path, data[:cut], 0o644)
			ix, closer, err := IndexFile(path, nil)
			if err != nil {
				t.Fatalf("%v cut at %d: %v", comp, cut, err)
			}
			src, _ := Open(path, nil)
			got, err := io.ReadAll(src.Reader())
			if err != nil || !src.Truncated() || !strings.HasPrefix(text.String(), string(got)) || ix.Bytes != int64(len(got)) {
				t.Fatalf("%v cut at %d: %d bytes, truncated %v, err %v; index %d bytes", comp, cut, len(got), src.Truncated(), err, ix.Bytes)
			}
			src.Close()
			closer()
		}
		src, _ := Open(writeTemp(t, data), nil)
		if _, err := src.ReaderAt(); err != nil || src.Truncated() {
			t.Fatalf("%v whole: truncated %v, err %v", comp, src.Truncated(), err)
		}
		src.Close()
	}
}

func writeTemp(t *testing.T, data []byte) string {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, data, 0o644)
	return path
}

// TestDecompressionBombOnStdin: on standard input, whose size is unknown,
// the ratio applies to the compressed bytes read so far.
func TestDecompressionBombOnStdin(t *testing.T) {
	f, err := os.Open(bomb(t, Gzip, 2048))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := Open(StdinName, f)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, err := io.Copy(io.Discard, src.Reader()); !errors.Is(err, ErrDecompressionLimit) || !strings.Contains(err.Error(), "times the compressed bytes read") {
		t.Fatalf("stdin bomb: %v", err)
	}
}
