// Package jsonl owns Pi's session file format: opening plain, gzip and zstd files,
// the line scanner, the offset index of the entry tree, path walks, decoding of
// entries by offset, migration of old versions, context building and token
// estimates, and a writer whose lines equal what Pi's JSON.stringify writes.
//
// Every pitool command is a consumer of one pipeline:
// Open → Scanner → Index → Path → Decode → context views.
package jsonl
