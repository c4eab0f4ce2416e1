package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pitool/pitool/archive"
	"github.com/pitool/pitool/internal/safefile"
)

// idleFor reports how long ago path was modified, other than by pitool
// itself (see safefile.LastChange): nightly's own writes of the last run
// are not a live session's.
func idleFor(path string) (time.Duration, error) {
	changed, err := safefile.LastChange(path)
	if err != nil {
		return 0, err
	}
	return time.Since(changed), nil
}

// actRolledBack is the action of a file whose interrupted archive was undone.
const actRolledBack = "archive-rolled-back"

// awaitsPlain reports a X.jsonl.zst whose X.jsonl still exists: an
// interrupted archive, which the worker on X.jsonl resolves. It is checked
// before the file is opened, since that worker may remove it meanwhile.
func awaitsPlain(r fileReport, path string) (fileReport, bool) {
	base, ok := archive.AwaitsPlain(path)
	if !ok {
		return r, false
	}
	return r.did(actSkipped, "interrupted archive of "+base+": resolved with that file"), true
}

// recoverInterrupted cleans up after a pitool that was killed: it removes
// stale temporary files in path's folder (reported on stderr), and finishes
// an interrupted archive, which left both X.jsonl and X.jsonl.zst. done is
// true when that was all to do for path this run. With dryRun it only says
// what it would do.
func recoverInterrupted(r fileReport, path string, dryRun bool) (fileReport, bool) {
	if !archive.Interrupted(path) {
		if !dryRun {
			safefile.CleanFolder(filepath.Dir(path))
		}
		return r, false
	}
	dst := path + archive.Suffix
	if dryRun {
		return r.did(actSkipped, "interrupted archive "+dst+": would be completed or rolled back"), true
	}
	safefile.CleanFolder(filepath.Dir(path))
	completed, err := archive.Finish(path)
	switch {
	case err != nil:
		return r.failed(fmt.Errorf("interrupted archive: %w", err)), true
	case completed:
		return r.did(actArchived, "completed an interrupted archive: "+dst), true
	}
	return r.did(actRolledBack, "removed "+dst+", left by an interrupted archive: it does not hold this file's bytes"), true
}
