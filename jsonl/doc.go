// Package jsonl owns Pi's session file format: opening plain, gzip and zstd files,
// the line scanner, the offset index of the entry tree, path walks, decoding of
// entries by offset, migration of old versions, context building and token
// estimates, the check of the request Pi sends at a leaf (tool results a
// provider refuses, [RequestChecker]) and its fix, and a writer whose lines
// equal what Pi's JSON.stringify writes.
//
// Every pitool command is a consumer of one pipeline:
// Open → Scanner → Index → Path → Decode → context views.
//
// # What a Pi session is
//
// Every command asks one question before it reads a file as a session or
// writes anything: is it a Pi session? [Source.CheckSession] answers it from
// the decompressed start of the file (a .gz or .zst file is judged on what it
// holds), reading at most [SniffBytes] and judging at most [SniffLines] lines
// that are not blank. An optional UTF-8 byte-order mark is ignored, and so are
// blank lines and lines of NUL bytes only (what a crash leaves). Lines are then
// taken in order, and the first that decides gives the answer:
//
//   - a header, a JSON object whose "type" is "session": a session;
//   - a Pi entry, a JSON object whose "type" is one of Pi's entry types (see
//     [EntryType]) with a string "timestamp" and, for "message", a "message"
//     object (v1 entries have no id, so none is required): a session, whose
//     header may be lost;
//   - a line holding binary data (a NUL byte among other bytes, a control
//     byte other than those text uses, or DEL): not a session. Binary formats
//     (executables, archives, databases, images) show such bytes in their
//     first line, while a damaged session's garbage comes after lines Pi
//     wrote, which decide first.
//
// Other lines (not JSON, not an object, an object of some other type or
// without one) do not decide: a damaged file may start with one. A line the
// SniffBytes bound cuts is judged by the members it shows up to the cut, so a
// long first entry still counts. When no line decides within the bounds, the
// file is not a session, and the reason names the first line that is not a Pi
// line ("line 1 is not JSON", "line 1 has type \"prompt\"").
//
// A file that holds nothing (zero bytes or blank lines only) is an empty
// session: Pi writes a fresh header into an empty file and carries on, and a
// command that writes to it destroys nothing (repair gives it a header). A
// file of NUL bytes only is not a session: it holds no line Pi wrote, and
// nothing tells it from the zeros of some other file, so it is left alone.
//
// What fails the check is reported as a [*NotSessionError] (FILE: not a Pi
// session (REASON)); no command changes such a file, forced or not. Reasons
// describe the content and never quote more than a clipped "type" value.
//
// # Memory and formats
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
