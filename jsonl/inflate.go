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

// limit is how far one compressed stream may inflate.
type limit struct {
	bytes  int64
	reason string // how the limit came about, for the error
}

// decompressLimit returns the limit of a compressed file of size bytes on
// disk (-1 when unknown: standard input).
func decompressLimit(size int64) limit {
	if v := os.Getenv(DecompressLimitEnv); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return limit{n, "set by " + DecompressLimitEnv}
		}
	}
	if size >= 0 && ratioFreeBytes+size*MaxCompressionRatio < MaxDecompressedBytes {
		return limit{ratioFreeBytes + size*MaxCompressionRatio, fmt.Sprintf("%d times its %d bytes on disk plus %d MiB; set %s=BYTES to raise it", MaxCompressionRatio, size, ratioFreeBytes>>20, DecompressLimitEnv)}
	}
	return limit{MaxDecompressedBytes, fmt.Sprintf("jsonl.MaxDecompressedBytes; set %s=BYTES to raise it", DecompressLimitEnv)}
}

// inflated is a decompressor's stream with its limit enforced and an early
// end of the compressed stream turned into a clean end, noted on the source.
type inflated struct {
	src   *Source
	r     io.Reader
	n     int64
	limit limit
}

func (z *inflated) Read(p []byte) (int, error) {
	if rest := z.limit.bytes + 1 - z.n; int64(len(p)) > rest {
		p = p[:rest] // one byte more than allowed shows the stream goes on
	}
	n, err := z.r.Read(p)
	z.n += int64(n)
	if z.n > z.limit.bytes {
		return 0, &PosError{File: z.src.Name, Offset: z.limit.bytes, Err: fmt.Errorf("decompresses to more than %d bytes (%w: %s)", z.limit.bytes, ErrDecompressionLimit, z.limit.reason)}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		z.src.torn = true
		return n, io.EOF
	}
	return n, err
}
