package jsonl

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// fuzzInflateLimit is the decompression limit FuzzInflate sets, small so
// that the fuzzer reaches it with short inputs.
const fuzzInflateLimit = 4096

// FuzzInflate reads gzip and zstd streams through Open, with the limit set
// to fuzzInflateLimit bytes: a whole stream of data inflates to exactly
// data when data is within the limit, and fails with ErrDecompressionLimit
// when it is not; the stream cut at any byte (still read as compressed) reads a prefix of
// data, a short one only with Truncated set; and any bytes
// behind either magic number read without panic, to at most the limit.
func FuzzInflate(f *testing.F) {
	f.Add([]byte("{\"type\":\"session\",\"version\":3}\n{\"type\":\"message\"}\n"), uint16(20), false)
	f.Add(bytes.Repeat([]byte("\n"), fuzzInflateLimit+1), uint16(7), true)
	f.Add([]byte{}, uint16(0), true)
	f.Setenv(DecompressLimitEnv, strconv.Itoa(fuzzInflateLimit))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, zst bool) {
		comp, kind := fuzzGzip(data), Gzip
		if zst {
			comp, kind = fuzzZstd.EncodeAll(data, nil), Zstd
		}
		got, torn, _, err := inflateAll(comp)
		switch {
		case len(data) > fuzzInflateLimit:
			if !errors.Is(err, ErrDecompressionLimit) {
				t.Fatalf("%d bytes over a %d-byte limit: %d bytes read, error %v", len(data), fuzzInflateLimit, len(got), err)
			}
		case err != nil || !bytes.Equal(got, data) || torn:
			t.Fatalf("%v stream of %d bytes: read %d bytes, torn %v, error %v", kind, len(data), len(got), torn, err)
		}
		k := int(cut) % (len(comp) + 1)
		got, torn, c, err := inflateAll(comp[:k])
		if err == nil && c == kind && (!bytes.HasPrefix(data, got) || (len(got) < len(data) && !torn) || len(got) > fuzzInflateLimit) {
			t.Fatalf("%v stream cut at %d of %d: read %q (torn %v) of %q", kind, k, len(comp), got, torn, data)
		}
		for _, magic := range [][]byte{gzipMagic, zstdMagic} {
			if got, _, _, err := inflateAll(append(bytes.Clone(magic), data...)); err == nil && len(got) > fuzzInflateLimit {
				t.Fatalf("%d bytes read past the limit", len(got))
			}
		}
	})
}

// fuzzZstd is one encoder for every run: each zstd.NewWriter keeps
// goroutines and buffers until closed.
var fuzzZstd, _ = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))

func fuzzGzip(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// inflateAll opens b as standard input and reads its decompressed stream.
func inflateAll(b []byte) (out []byte, torn bool, c Compression, err error) {
	src, err := Open(StdinName, bytes.NewReader(b))
	if err != nil {
		return nil, false, Plain, err
	}
	defer src.Close()
	out, err = io.ReadAll(src.Reader())
	return out, src.Truncated(), src.Compression, err
}
