// Package safefile is the one way pitool writes a file. Nothing else in pitool
// creates, renames or replaces a file it writes (jsonl's read-side spool of a
// compressed input aside).
//
// Pitool runs as root (cron) over folders other users can write, and such a
// user can swap any name there for a symlink, a FIFO or another file
// between two system calls. So a name is resolved once; everything after
// goes through descriptors:
//   - The path is resolved once. Symlinks at its end are followed by hand,
//     each only as the kernel's fs.protected_symlinks rule allows: a link in
//     a sticky, world-writable folder (/tmp) whose owner is neither the
//     caller (euid) nor the folder's owner is refused. Its folder is then
//     opened (O_DIRECTORY) and every name in it is looked up through that
//     descriptor (openat, fstatat, renameat, linkat, unlinkat), never through
//     the path again: a folder or link swapped in along the path changes
//     nothing.
//   - Every file that may have been swapped is opened with O_NONBLOCK (and
//     O_NOFOLLOW where no link is expected) and checked through its
//     descriptor (fstat) before it is read: a FIFO never blocks, a link or
//     anything not regular is refused with ErrNotRegular. OpenRegular is that
//     open for callers.
//   - Owner and mode are set with fchown and fchmod on descriptors, never by
//     name.
//   - A file found in a folder a command searched is written only where it
//     really lies inside that folder (ConfineTree): Begin, AppendLine and
//     WriteFile of a path under a confined folder ask the kernel where the
//     folder they opened is (/proc/self/fd) and refuse with ErrOutsideTree
//     when a name on the way was swapped for a link out after the search.
//
// Run as root on files another user controls, pitool does not call this
// package at all: it runs the work in a child as that user (cmd/pitool's
// privsep.go), and the kernel's rules apply; what this package does is the
// defence in depth, for root's own files and for every user's runs.
//
// Outputs (WriteFile: -o, --report, quarantines, archives):
//   - OpenTarget does WriteFile's first half before any work: it resolves
//     the path, opens its folder (a missing one, or a folder this process
//     cannot create a file in, ErrNotWritable, is refused at once), refuses
//     a folder named as the file, and gives a regular file there to
//     Options.Check through a read-only descriptor; Target.Write replaces
//     that file only if the name still holds it (ErrChanged otherwise).
//     CheckFolder checks a folder outputs go into.
//   - Every error names the path the caller gave, never a temporary file.
//   - A path that names a symbolic link is resolved (see above) and its
//     target written; the link stays a link. A dangling link is followed only
//     as the rule allows, and its target created as a new file (link(2),
//     never over a file that appeared there meanwhile).
//   - A target that exists and is not a regular file (a character or block
//     device, a FIFO, a terminal) is opened for writing and written directly.
//     It is opened without following a link, with O_NONBLOCK first (a FIFO
//     without a reader is opened again, blocking until one comes), and written
//     only if the descriptor is the file lstat saw. It is never replaced,
//     renamed or removed. /dev/stdout, /dev/stderr and /dev/fd/N are written
//     through a duplicate of the process's own descriptor.
//   - A regular file, or a new path, is written to a temporary file in the
//     same folder, synced, renamed over the target, and the folder synced.
//     The temporary file is removed on any error.
//   - NoClobber (quarantines, archives, unarchive) never follows a link at
//     the path: anything there, a dangling link too, is os.ErrExist, and the
//     new file is linked into place, which fails if anything came meanwhile.
//   - A replaced file keeps its owner, group and mode (the temporary file is
//     chowned and chmodded before the rename). A new file is 0600; run as
//     root in a folder owned by someone else, it is given the folder's owner
//     and group, so a user's session folder never fills with root's files.
//
// In place (Begin, Edit.Commit: repair --in-place, redact --in-place, the
// repair step of nightly; BeginNoFollow and Edit.Remove: nightly's archive,
// unarchive):
//  1. Begin resolves a symlink (BeginNoFollow refuses one), removes the stale
//     temporary files of its folder, opens the folder and the file in it
//     (O_NOFOLLOW|O_NONBLOCK, fstat regular), takes the file's advisory lock
//     on that descriptor (flock, which excludes other pitool processes, not
//     Pi) and stamps the file: size, modification time, device and inode,
//     and a SHA-256 of its first and last 64 KiB. A file modified within the
//     last second is stamped once its last line is whole (waiting up to 50
//     ms): Linux lets a reader see an append half done. The stamp stands if,
//     right after, the file's name still holds the same inode (fstatat
//     without following: a link swapped in is another inode), no shorter,
//     with the same ends; lines appended meanwhile come after the stamped
//     bytes and are carried. It keeps the folder and the file open.
//  2. The caller reads the stamped bytes (Snapshot, through the kept
//     descriptor, never what was appended after them) and Commit has it
//     write the new content to a temporary file (created in the folder with
//     O_CREAT|O_EXCL|O_NOFOLLOW|O_APPEND, mode 0600), which reports how many
//     bytes of the old file that content accounts for (its basis).
//  3. Right before the rename Commit rechecks the file. If it only grew, and
//     the grown part starts at a line boundary and is whole lines, the grown
//     bytes are carried to the end of the new content (verbatim, or through
//     the caller's Carry function) and the file rechecked again, up to
//     maxRechecks times; then the temporary file is synced, and the file
//     rechecked once more: what was appended during the sync is carried and
//     synced too. An incomplete last line is waited for up to LineWait.
//     Anything else (shrunk, other inode, same size but a new modification
//     time, a changed first or last 64 KiB, growth of a file whose new
//     content is compressed) aborts with ErrChanged and leaves the file as
//     it was.
//  4. The backup, when asked for, is a hard link to the old file (FILE.bak,
//     never overwriting an existing one), made within the folder and checked
//     to be the stamped inode; then the temporary file is renamed over the
//     file (renameat in the folder) and the folder synced. The backup's mode,
//     when asked for, is set on the old file's descriptor (fchmod), never
//     through FILE.bak, which may by then be a link to anything.
//  5. Through the descriptor kept since Begin, Commit watches the old file
//     after the rename until it has stayed unchanged for lateQuiet (50 ms,
//     at most lateMax): bytes Pi appended to it between the last recheck and
//     the rename, and lines written by a writer that opened the file by name
//     just before the rename, are appended to the new file through the
//     temporary file's descriptor, kept open past the rename (never by name,
//     which may by then be a link), so no line is lost. Such a line comes
//     after any line Pi has meanwhile written to the new file, though: if Pi
//     then stops, resuming takes the branch of the older line. The window is
//     the moment between the last recheck and the rename (no fsync in it).
//
// Edit.Remove removes only the inode Begin stamped: it renames the name
// aside to a temporary name in the folder, checks that it took that inode
// and unlinks it; anything else swapped in is renamed back (never over what
// came meanwhile) and ErrChanged returned. Edit.CreateBeside,
// Edit.OpenBeside and Edit.RemoveBeside create (never over anything, a link
// included), read and remove another name in the folder Begin opened
// (nightly's X.jsonl.zst).
//
// Appends (AppendLine: compact) are one write and one fsync under the lock,
// after checking the stamp on the very descriptor written (opened in the
// resolved folder with O_NOFOLLOW|O_NONBLOCK|O_APPEND); they never replace
// anything. A line that Pi's own append beat between the check and the
// write is withdrawn (blanked in place through the same descriptor, with
// O_APPEND cleared), so that Pi's line stays on the active branch.
//
// Temporary files are named .NAME.pitool-tmp-RANDOM and their writer holds an
// flock on them from their creation until they are renamed (and, for
// Commit, until it stops carrying late lines). The first write into a
// folder removes the pitool temporary files there whose lock can be taken
// (their writer is dead), each opened without following a link or blocking,
// and removed only while its name still holds the locked file, and reports
// each one to ReportStale.
//
// Test hooks: the package's tests swap names at the moments beforeOpen,
// afterStamp, afterSync, afterInstall and beforeRemove mark. When
// PITOOL_TEST_PAUSE_BEFORE_COMMIT names a folder, Commit
// (before its rechecks) and AppendLine (between its check and its write)
// create FOLDER/paused and wait until FOLDER/resume exists, so that a test
// can append to the file at that exact moment. PITOOL_TEST_FAULT injects a
// full disk after N bytes of every written file ("write-after:N") or EIO on
// every fsync ("sync").
package safefile
