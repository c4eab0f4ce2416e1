// Package jsonl owns Pi's session file format: opening plain, gzip and zstd files,
// the line scanner, the offset index of the entry tree, path walks, decoding of
// entries by offset, migration of old versions, context building and token
// estimates, and a writer whose lines equal what Pi's JSON.stringify writes.
//
// Every pitool command is a consumer of one pipeline:
// Open → Scanner → Index → Path → Decode → context views.
//
// Memory grows with entries, not with bytes or lines: the Index keeps about
// 75 bytes per entry (bench/README.md, "Memory bounded by entries"), and a
// line that is not an entry (blank, garbage, not an object, a repeated
// header) costs a counter, only the first MaxSampledLines keeping their
// positions. A compressed file is inflated to a temporary spool first, and
// to at most MaxCompressionRatio times its size plus 64 MiB, never past
// MaxDecompressedBytes (DecompressLimitEnv overrides both): a decompression
// bomb is ErrDecompressionLimit, not a full memory or disk. A compressed file
// cut short yields what its decompressor recovers (Source.Truncated).
//
// An output's format comes from its name (CompressionForName); a file
// rewritten in place keeps the format its bytes have.
package jsonl
