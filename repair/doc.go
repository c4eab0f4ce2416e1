// Package repair validates Pi session files and repairs them. Validation is
// one streaming pass (a strict JSON check that records a few fields per
// entry) plus checks over the entry tree; every finding has a stable code, a
// severity, a position and the pitool repair command that fixes it.
//
// Repair is a rewrite plan over the validated file: each input line is kept
// (copied as bytes, never decoded), or rewritten object by object (kept,
// dropped as a byte-for-byte repeat, sent to the quarantine, or re-encoded
// with a few fields set), plus inserted lines (a recreated header, closing
// tool results). So the repair of a valid file is the file itself, repair is
// idempotent, and every input byte ends up in the output or in the
// quarantine file (OUT.quarantine), except the framing repair normalises:
// the byte-order mark, CRs before LF, NUL bytes, blank lines, and invalid
// UTF-8, which becomes U+FFFD as Pi reads it. Link fields that repair
// rewrites (id, parentId, firstKeptEntryId, targetId, fromId) are listed in
// the Result with their old values.
//
// Decisions:
//   - A parentId that names no entry written before (missing, written later,
//     or on a cycle) is re-attached to the nearest earlier surviving entry, so
//     the conversation stays one path; this also breaks every cycle.
//   - With conflicting duplicate ids, the later entry gets a fresh id; a
//     reference resolves to the latest entry with that id written before it.
//   - A compaction whose firstKeptEntryId names no entry, or one off its
//     branch, becomes retain-none (firstKeptEntryId = its own id). That is
//     exactly what Pi already shows (nothing before the summary is kept), so
//     the context does not change; guessing a cut point would put back
//     messages the summary already covers.
//   - A tool result whose call is on no branch above it (its call was lost,
//     is only in a failed turn, or comes after it) goes to the quarantine:
//     providers reject such a result.
//   - Any other tool result the request at the active leaf holds and a
//     provider refuses (its call summarised by a compaction, dropped or
//     replaced by a context_edit, cut off by a message, or answered before)
//     is dropped by appending a context_edit with replacement null after the
//     last line (jsonl.Index.RequestFix), so history stays byte-identical
//     and Pi's /tree can undo it. When other repairs renumber or drop
//     entries Pi loads, the edits wait for the next run.
//   - A torn last line goes to the quarantine and the complete lines before
//     it are kept; half an entry is never completed by guessing.
//   - v1 and v2 files are migrated to v3 as Pi migrates them, with the ids
//     pitool's reader derives (not random ones).
package repair
