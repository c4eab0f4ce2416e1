package main

import (
	"github.com/pitool/pitool/internal/runner"
)

// This file holds what the commands that read a whole sessions folder
// (search, stats) share: the files they read and the usage lines
// of their --since and --until.

// The usage lines of --since and --until.
const (
	sinceUsage = "only entries at or after `TIME`: an age (7d, 12h), a date (2026-01-31) or an ISO time"
	untilUsage = "only entries before `TIME` (an age, a date: its start, or an ISO time)"
)

// sessionPaths returns the session files under paths, Pi's sessions folder
// when there are none, and the readFailures that knows which were named;
// files in folders that are not regular are warned about and left out.
func sessionPaths(e *env, paths []string) ([]string, *readFailures, error) {
	if len(paths) == 0 {
		dir, err := sessionsFolder("")
		if err != nil {
			return nil, nil, err
		}
		paths = []string{dir}
	}
	files, err := runner.Expand(paths, runner.ExpandOptions{})
	if err != nil {
		return nil, nil, err
	}
	sorted := runner.Sort(files)
	rf := newReadFailures(e, sorted.Named...)
	for _, ns := range sorted.Special {
		rf.note(ns.File, ns)
	}
	out := sorted.Paths
	if len(out) == 0 && rf.failed == 0 {
		return nil, nil, noFilesError(paths)
	}
	return out, rf, nil
}
