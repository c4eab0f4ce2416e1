package main

import (
	"os"
	"slices"
	"time"

	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// target is one file a batch command works on.
type target struct {
	path    string
	idle    time.Duration          // --min-idle that applies to it
	outside bool                   // found through a symlink that leads out of the named folder
	root    string                 // the path named that it was found under
	named   bool                   // named on the command line, not found in a folder
	special *jsonl.NotSessionError // found in a folder, not a regular file: never opened
	info    os.FileInfo            // the walk's stat of it (sessionfiles.File.Info); nil if none
}

// batchTargets expands paths into the files of this shard. Files named on the
// command line get idle 0 and files found in folders defaultIdle, unless
// --min-idle was given (set).
func batchTargets(paths []string, sh shard, minIdle time.Duration, set bool) ([]target, error) {
	var out []target
	err := runner.ExpandEach(paths, runner.ExpandOptions{}, func(root string, files []sessionfiles.File, _ error) {
		out = slices.Grow(out, len(files))
		for _, f := range files {
			if sh.n > 1 && !sh.takes(shardKey(f.Path)) { // one shard takes every file
				continue
			}
			idle := defaultFolderIdle
			if f.Named {
				idle = 0
			}
			if set {
				idle = minIdle
			}
			out = append(out, target{path: f.Path, idle: idle, named: f.Named, outside: f.Outside, root: root, special: f.NotRegular(), info: f.Info})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// shardKey is what --shard splits files by: the file's name without its
// folder and suffixes (sessionfiles.FileStem), which for Pi is the session's
// start time and id. Unlike a path, it is the same whatever path reaches the
// folder (a symlink, another mount point, a relative or absolute path),
// whether the file is named or found in a folder, and before and after
// nightly archives x.jsonl as x.jsonl.zst: every machine of a fleet puts a
// session in the same one of the N shards.
func shardKey(path string) string { return sessionfiles.FileStem(path) }
