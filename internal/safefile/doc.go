// Package safefile is the one way pitool writes a file. Nothing else in pitool
// creates, renames or replaces a file it writes (jsonl's read-side spool of a
// compressed input aside).
//
// Outputs (WriteFile: -o, --report, quarantines, archives):
//   - A path that names a symbolic link is resolved and its target written;
//     the link stays a link.
//   - A target that exists and is not a regular file (a character or block
//     device, a FIFO, a terminal, /dev/stdout and /dev/fd/N) is opened for
//     writing and written directly. It is never replaced, renamed or removed.
//   - A regular file, or a new path, is written to a temporary file in the
//     same folder, synced, renamed over the target, and the folder synced.
//     The temporary file is removed on any error.
//   - A replaced file keeps its owner, group and mode (the temporary file is
//     chowned and chmodded before the rename). A new file is 0600; run as
//     root in a folder owned by someone else, it is given the folder's owner
//     and group, so a user's session folder never fills with root's files.
//
// In place (Begin, Edit.Commit: repair --in-place, redact --in-place, the
// repair step of nightly):
//  1. Begin resolves a symlink, removes the stale temporary files of its
//     folder, takes the file's advisory lock (flock, which
//     excludes other pitool processes, not Pi) and stamps the file: size,
//     modification time, device and inode, and a SHA-256 of its first and
//     last 64 KiB. A file modified within the last second is stamped once
//     its last line is whole (waiting up to 50 ms): Linux lets a reader see
//     an append half done. The stamp stands if, right after, the file is
//     still the same inode, no shorter, with the same ends; lines appended
//     meanwhile come after the stamped bytes and are carried. It keeps the
//     file open.
//  2. The caller reads the stamped bytes (Snapshot, through the kept
//     descriptor, never what was appended after them) and Commit has it
//     write the new content to a temporary file, which reports how many
//     bytes of the old file that content accounts for (its basis).
//  3. Right before the rename Commit rechecks the file. If it only grew, and
//     the grown part starts at a line boundary and is whole lines, the grown
//     bytes are carried to the end of the new content (verbatim, or through
//     the caller's Carry function) and the file rechecked again, up to
//     maxRechecks times; then the temporary file is synced, and the file
//     rechecked once more: what was appended during the sync is carried and
//     synced too. An incomplete last line is waited for up to LineWait. Anything else (shrunk, other inode, same size but a new
//     modification time, a changed first or last 64 KiB, growth of a file
//     whose new content is compressed) aborts with ErrChanged and leaves the
//     file as it was.
//  4. The backup, when asked for, is a hard link to the old file (FILE.bak,
//     never overwriting an existing one), then the temporary file is renamed
//     over the file and the folder synced.
//  5. Through the descriptor kept since Begin, Commit watches the old file
//     after the rename until it has stayed unchanged for lateQuiet (50 ms,
//     at most lateMax): bytes Pi appended to it between the last recheck and
//     the rename, and lines written by a writer that opened the file by name
//     just before the rename, are appended to the new file, so no line is
//     lost. Such a line comes after any line Pi has meanwhile written to the
//     new file, though: if Pi then stops, resuming takes the branch of the
//     older line. The window is the moment between the last recheck and the
//     rename (no fsync in it).
//
// Appends (AppendLine: compact) are one write and one fsync under the lock,
// after checking the stamp; they never replace anything. A line that Pi's
// own append beat between the check and the write is withdrawn (blanked in
// place), so that Pi's line stays on the active branch.
//
// Temporary files are named .NAME.pitool-tmp-RANDOM and their writer holds an
// flock on them from their creation until they are renamed. The first write into a folder removes the
// pitool temporary files there whose lock can be taken (their writer is
// dead) and reports each one to ReportStale.
//
// Test hooks: when PITOOL_TEST_PAUSE_BEFORE_COMMIT names a folder, Commit
// (before its rechecks) and AppendLine (between its check and its write)
// create FOLDER/paused and wait until FOLDER/resume exists, so that a test
// can append to the file at that exact moment. PITOOL_TEST_FAULT injects a
// full disk after N bytes of every written file ("write-after:N") or EIO on
// every fsync ("sync").
package safefile
