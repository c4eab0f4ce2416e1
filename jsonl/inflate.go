package jsonl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// MaxDecompressedBytes is the most a compressed session file may
// decompress to. Together with MaxCompressionRatio it keeps a
// decompression bomb (a few megabytes of gzip that inflate to gigabytes of
// newlines) from filling memory or the disk with its spool: pitool stops
// with ErrDecompressionLimit instead.
const MaxDecompressedBytes int64 = 4 << 30

// MaxCompressionRatio is how many times its size on disk a compressed file
// may inflate to, beyond the first ratioFreeBytes. Session logs compress
// 5 to 20 times; a bomb of newlines about 1000 times.
const MaxCompressionRatio = 100

// ratioFreeBytes is how much any compressed file may inflate to, whatever
// its ratio, so that small archives are never refused.
const ratioFreeBytes int64 = 64 << 20

// DecompressLimitEnv names the environment variable that, set to a number
// of bytes, replaces both limits: the way to read a trusted file that
// inflates more.
const DecompressLimitEnv = "PITOOL_MAX_DECOMPRESSED_BYTES"

// maxZstdWindow bounds the memory a zstd frame may ask for (zstd --long
// uses 128 MB).
const maxZstdWindow = 128 << 20

// ErrDecompressionLimit is the error of a compressed file that inflates to
// more than its limit.
var ErrDecompressionLimit = errors.New("over the decompression limit")

// limit is how far one compressed stream may inflate: a fixed number of
// bytes, or (ratio set) ratio times the compressed bytes read so far plus
// ratioFreeBytes, for standard input, whose size is not known.
type limit struct {
	bytes  int64
	ratio  bool
	reason string // how the limit came about, for the error
}

// decompressLimit returns the limit of a compressed file of size bytes on
// disk (-1 when unknown: standard input).
func decompressLimit(size int64) limit {
	if v := os.Getenv(DecompressLimitEnv); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return limit{bytes: n, reason: "set by " + DecompressLimitEnv}
		}
	}
	raise := fmt.Sprintf("; set %s=BYTES to raise it", DecompressLimitEnv)
	switch {
	case size < 0:
		return limit{bytes: MaxDecompressedBytes, ratio: true, reason: fmt.Sprintf("%d times the compressed bytes read plus %d MiB", MaxCompressionRatio, ratioFreeBytes>>20) + raise}
	case ratioFreeBytes+size*MaxCompressionRatio < MaxDecompressedBytes:
		return limit{bytes: ratioFreeBytes + size*MaxCompressionRatio, reason: fmt.Sprintf("%d times its %d bytes on disk plus %d MiB", MaxCompressionRatio, size, ratioFreeBytes>>20) + raise}
	}
	return limit{bytes: MaxDecompressedBytes, reason: "jsonl.MaxDecompressedBytes" + raise}
}

// at returns the limit once compressed bytes have been read.
func (l limit) at(compressed int64) int64 {
	if !l.ratio {
		return l.bytes
	}
	return min(l.bytes, ratioFreeBytes+compressed*MaxCompressionRatio)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader and counts what it got.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// inflated is a decompressor's stream with its limit enforced and an early
// end of the compressed stream turned into a clean end, noted on the source.
type inflated struct {
	src        *Source
	r          io.Reader
	n          int64
	limit      limit
	compressed *countingReader // the compressed bytes read
}

// Read reads decompressed bytes, failing with ErrDecompressionLimit past
// the limit and ending cleanly where the compressed stream is cut short.
func (z *inflated) Read(p []byte) (int, error) {
	if rest := z.limit.at(z.compressed.n) + 1 - z.n; int64(len(p)) > rest {
		p = p[:max(rest, 1)] // one byte more than allowed shows the stream goes on
	}
	n, err := z.r.Read(p)
	z.n += int64(n)
	if lim := z.limit.at(z.compressed.n); z.n > lim {
		return 0, &PosError{File: z.src.Name, Offset: lim, Err: fmt.Errorf("decompresses to more than %d bytes (%w: %s)", lim, ErrDecompressionLimit, z.limit.reason)}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		z.src.torn = true
		return n, io.EOF
	}
	return n, err
}
