// Package runner is the one loop of the commands that work on many session
// files (validate, repair, redact, compact, info, stats, search): it turns
// the paths a user gave into targets, judges a file that cannot be read by
// one rule (named: an error; found in a folder and not a session: skipped),
// and runs a command's work over the targets in order, on one or several
// workers, with a progress bar on a terminal, until Ctrl-C cancels it.
package runner

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// Target is one file a command works on, or a path that could not be
// expanded (Err set, Path the path as named).
type Target struct {
	sessionfiles.File
	Root string // the path named that the file was found under (itself when named)
	Err  error  // the path could not be expanded
}

// Special is the reason a target found in a folder is never opened (a FIFO,
// a device: not a Pi session), or nil.
func (t Target) Special() *jsonl.NotSessionError { return t.NotRegular() }

// ExpandOptions says how Expand lists files.
type ExpandOptions struct {
	EveryPath  bool // a file reached by several paths is listed under each (as Pi lists it)
	KeepErrors bool // a path that cannot be expanded is a target with Err, not Expand's error
	Roots      bool // each target's Root is the path it was found under
}

// Expand turns paths (files, folders searched recursively, "-") into
// targets, in order. Without options a file reached through several of the
// paths is listed once; with any, the paths are expanded one by one.
func Expand(paths []string, opts ExpandOptions) ([]Target, error) {
	if opts == (ExpandOptions{}) {
		files, err := sessionfiles.Expand(paths)
		return targetsOf(files), err
	}
	var out []Target
	err := ExpandEach(paths, opts, func(root string, files []sessionfiles.File, err error) {
		if err != nil {
			out = append(out, Target{File: sessionfiles.File{Path: root, Named: true}, Root: root, Err: err})
			return
		}
		out = slices.Grow(out, len(files))
		for _, f := range files {
			out = append(out, Target{File: f, Root: root})
		}
	})
	return out, err
}

// ExpandEach expands paths as Expand with options does, path by path (a
// file reached through two of them is listed under each), without a list of
// targets made (nightly's of 10,000 files was a copy of the walk's, 0.9 MB
// of fresh memory: issue 28): found gets each path (the targets' Root) and
// the files it stands for, or with KeepErrors the error it met.
func ExpandEach(paths []string, opts ExpandOptions, found func(root string, files []sessionfiles.File, err error)) error {
	for _, p := range paths {
		files, err := expandOne(p, opts.EveryPath)
		if err != nil && !opts.KeepErrors {
			return err
		}
		found(p, files, err)
	}
	return nil
}

func expandOne(path string, everyPath bool) ([]sessionfiles.File, error) {
	if everyPath {
		return sessionfiles.ExpandEveryPath([]string{path})
	}
	return sessionfiles.Expand([]string{path})
}

// targetsOf makes a target of each file (Root left empty).
func targetsOf(files []sessionfiles.File) []Target {
	out := make([]Target, len(files))
	for i, f := range files {
		out[i] = Target{File: f}
	}
	return out
}

// Named makes a target of each path as it is, without searching folders:
// for the commands that take files only (repair).
func Named(paths []string) []Target {
	out := make([]Target, len(paths))
	for i, p := range paths {
		out[i] = Target{File: sessionfiles.File{Path: p, Named: true}, Root: p}
	}
	return out
}

// Verdict is what the read rule makes of a file that could not be read as a
// Pi session.
type Verdict int

const (
	// Fail: an error, and the run exits 2 (a file the user named, or one
	// whose bytes could not be had).
	Fail Verdict = iota
	// SkipNotSession: a file found in a folder that is not a Pi session,
	// skipped with a warning; it changes nothing and not the exit status.
	SkipNotSession
	// SkipDamaged: a file found in a folder that pitool reads but cannot
	// use (a session too damaged to index), skipped with a warning.
	SkipDamaged
)

// Judge applies the read rule to err, met reading a file (named: the user
// named it).
func Judge(named bool, err error) Verdict {
	_, isNS := jsonl.IsNotSession(err)
	switch {
	case named || unreadable(err):
		return Fail
	case isNS:
		return SkipNotSession
	}
	return SkipDamaged
}

// unreadable reports whether err means the file's bytes could not be had:
// an error of the system (permission, I/O), or a compressed stream that does
// not decompress.
func unreadable(err error) bool {
	var pe *fs.PathError
	var se *os.SyscallError
	return errors.As(err, &pe) || errors.As(err, &se) || errors.Is(err, syscall.EIO) ||
		errors.Is(err, jsonl.ErrDecompress) || errors.Is(err, jsonl.ErrDecompressionLimit)
}

// Options says how Run runs.
type Options struct {
	Progress io.Writer // where the bar is drawn when it is a terminal (stderr); nil for none
	Label    string    // the bar's label, the command's name
	// Jobs: 0 works on and reports each target before the next, in the
	// caller's goroutine; N >= 1 works on N targets at once
	// (parallel.InOrder), reporting in order.
	Jobs int
}

// Run calls work on every target (a Target, or a command's own record of
// one), on opts.Jobs workers, and report with each result in the targets'
// order, counting the bar on. It stops at the first error report returns,
// or when ctx is cancelled (ctx.Err()); work already started finishes and is
// reported.
func Run[T, R any](ctx context.Context, targets []T, opts Options, work func(context.Context, T) R, report func(T, R) error) error {
	var bar *progress.Bar
	if opts.Progress != nil && len(targets) > 1 {
		bar = progress.New(opts.Progress, len(targets), opts.Label)
	}
	defer bar.Finish()
	if opts.Jobs == 0 {
		return runInOrder(ctx, targets, bar, work, report)
	}
	var rerr error
	parallel.InOrder(ctx, len(targets), opts.Jobs, func(i int) R {
		return work(ctx, targets[i])
	}, func(i int, r R) {
		bar.Add(1)
		if rerr == nil {
			rerr = report(targets[i], r)
		}
	})
	if rerr != nil {
		return rerr
	}
	return ctx.Err()
}

// runInOrder is Run on one worker: each target is worked on and reported
// before the next is started.
func runInOrder[T, R any](ctx context.Context, targets []T, bar *progress.Bar, work func(context.Context, T) R, report func(T, R) error) error {
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := report(t, work(ctx, t)); err != nil {
			return err
		}
		bar.Add(1)
	}
	return nil
}

// Each is Run for work that reports as it goes: each target is handled by
// each, in order, on one worker.
func Each[T any](ctx context.Context, targets []T, opts Options, each func(T) error) error {
	return Run(ctx, targets, opts, func(context.Context, T) error { return nil },
		func(t T, _ error) error { return each(t) })
}

// Listed makes a target of each path found by a command's own search
// (redact --check's files that may hold session lines), named when it is
// one of args, the paths the user gave.
func Listed(paths, args []string) []Target {
	named := make(map[string]bool, len(args))
	for _, a := range args {
		named[a] = true
	}
	out := make([]Target, len(paths))
	for i, p := range paths {
		out[i] = Target{File: sessionfiles.File{Path: p, Named: named[p]}}
	}
	return out
}

// Paths returns the path of each target, in order.
func Paths(targets []Target) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Path
	}
	return out
}
