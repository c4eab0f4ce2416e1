package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pitool/pitool/archive"
	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/nightstate"
	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// nightlyRun is one nightly job.
type nightlyRun struct {
	dir          string   // the first DIR (the report's "dir")
	dirs         []string // every DIR, in the order given
	args         []string // the command line, for the workers of a run as root
	worker       bool     // a worker run as a user by a nightly run as root
	opts         compactor.Options
	targets      []target
	jobs         int
	archiveAfter time.Duration     // 0: never archive
	report       string            // "-" for stdout
	dryRun       bool              // decide and report, write nothing
	state        *nightstate.State // what the last run found; nil with --dry-run or the report on stdout
	cleaned      sync.Map          // the folders whose stale temporary files were removed
	walked       time.Time         // when the walk began: before its stat of each file
	found        map[string]bool   // the archives the walk found in folders; with a state only
	fullWork     sync.Once         // the first file worked on in full sets the collector's target
	// stateAhead waits for the state file read beside the walk; nil when
	// none was begun (readStateAhead)
	stateAhead func() (*nightstate.State, error)
}

// cleanFolderOnce removes the stale temporary files of dir (see
// safefile.CleanFolder) the first time it is asked to in a run: a folder of
// many files remembered unchanged is read once, not once per file.
func (run *nightlyRun) cleanFolderOnce(dir string) {
	if _, done := run.cleaned.LoadOrStore(dir, true); !done {
		safefile.CleanFolder(dir)
	}
}

func nightlyCommand(e *env) *cli.Command {
	opts := &nightlyOptions{}
	return &cli.Command{
		Name:      "nightly",
		Usage:     "validate, compact and archive a whole sessions folder (for cron or a systemd timer)",
		ArgsUsage: "[DIR...]",
		Description: `Works through every session file under each DIR (default: Pi's sessions
folder, $PI_CODING_AGENT_DIR/sessions or ~/.pi/agent/sessions):
  1. skips files modified less than --min-idle ago (10m): they may be live;
  2. validates the others and repairs damaged ones in place, keeping the
     original as FILE.bak (see pitool repair --help); a file repair cannot
     make valid is reported "damaged" and left alone: neither archived nor
     compacted;
  3. archives files idle longer than --archive-after (e.g. 30d) as .jsonl.zst,
     which every pitool command reads transparently (off by default). Pi's
     /resume no longer lists them (pitool ls --all does). To undo:
     pitool unarchive X.jsonl.zst puts X.jsonl back where /resume finds it;
  4. compacts the others when due, with Pi's rules (see pitool compact --help).
Symlinked folders and files are followed, as Pi does; a file whose link leads
out of DIR is read but never written through (skipped, with the reason): name
it, or its folder, as DIR to work on it.

Run by hand from a terminal with no DIR, nightly asks for --yes before it
rewrites the files of Pi's sessions folder (see what it would do first with
--dry-run); cron and systemd, which have no terminal, need no --yes.

Writes a JSON report (to stdout, or --report FILE, whose folder is checked
before any work) and a one-line summary on stderr. Each file's "action" is
what was done to it: compacted, not-due, archived, damaged (repair left it
invalid: neither archived nor compacted), live, skipped, failed; a file
found damaged lists its "damage" and, once repaired, "repaired": true.
"totals" counts the files per action, except "damaged", which counts the
files found damaged, repaired or not.

--dry-run writes nothing but the report (stdout, or --report FILE; no state
file): per file, what a real run would do now, in the future tense
("dryRun": true, "action": "would compact" or "would archive",
"wouldRepair": true); the repair is made in memory and the rest decided on
its bytes. Its totals use the real run's keys, so the two compare.

nightly knows its own writes: a file it (or repair -i, compact, redact -i)
wrote and nobody wrote to since is as idle as before that write, never
"live" (kept in an extended attribute, user.pitool.write, where the
filesystem has them). An archive keeps the session file's modification time.

With --report FILE, nightly keeps FILE.state: per file it read and left
unchanged with nothing due, its size, mtime, ctime and inode, and what it
found. On the next run a file whose stat is still exactly that, under the
same options and pitool binary, costs one stat: the report repeats what was
found ("remembered": true). Any change to the file and it is worked on in
full. Deleting FILE.state is safe: the next run does the full work.

Run as root (a system-wide timer over every user's sessions folder), nightly
never works on a user's files as root: the root process walks the folders,
reads and writes the report and FILE.state, and for each user who controls
files (owns a folder on their path: /home/alice) runs one worker as that
user (uid, gid and groups, set before it touches anything), one user after
another. A file the user may not read or write is reported "skipped" with
the reason, never written as root; a path through a folder others may write
without the sticky bit is refused ("failed"). Files only root controls are
worked on by the root process. The report lists the workers ("workers":
uid, gid, user, files, exit) and per file who worked on it ("ranAs": uid).
See "Running as root" in the README.

Exit status: 0 when no file failed, even with nothing to do; 1 when some file
failed; 2 for usage errors and a DIR (or default sessions folder) that does
not exist; 130 when interrupted (files in flight count as "interrupted").`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			run, err := newNightlyRun(e, opts, c.Args().Slice())
			if err != nil {
				return err
			}
			return runNightly(c.Context, e, run)
		}),
	}
}

func newNightlyRun(e *env, o *nightlyOptions, dirs []string) (*nightlyRun, error) {
	collectAtTheLimit() // until a file needs the full work: see nightlyGCPercent
	opts, err := o.compactorOptions()
	if err != nil {
		return nil, err
	}
	run := &nightlyRun{opts: opts, jobs: o.jobs, report: o.report, dryRun: o.dryRun,
		args: e.args, worker: nightlyWorker}
	run.opts.Plan = run.dryRun
	run.archiveAfter = o.archiveAfter
	if run.worker {
		return run, nil // the files come on stdin (runNightlyWorker)
	}
	if err := checkReport(run.report); err != nil {
		return nil, err
	}
	named := len(dirs) > 0
	if !named {
		dirs = []string{""}
	}
	for _, d := range dirs {
		dir, err := sessionsFolder(d)
		if err != nil {
			return nil, err
		}
		run.dirs = append(run.dirs, dir)
	}
	run.dir = run.dirs[0]
	run.readStateAhead()
	run.walked = time.Now()
	if run.targets, err = batchTargets(run.dirs, o.shard, o.minIdle, true); err != nil {
		return nil, err
	}
	if !named && !run.dryRun && !o.yes && isTTY(e.stdin) {
		return nil, usagef("nightly would repair, compact and archive the %d %s in %s in place; run it with --yes to do so, or with --dry-run to see what it would do first",
			len(run.targets), textout.Choose(len(run.targets), "session file", "session files"), run.dir)
	}
	return run, nil
}

// reportIsFile reports whether the report goes to a regular file (or a new
// one), next to which the state file belongs: not stdout, a device or a FIFO
// (--report /dev/stderr must not create /dev/stderr.state).
func reportIsFile(report string) bool {
	if report == "-" {
		return false
	}
	info, err := os.Stat(report)
	return errors.Is(err, fs.ErrNotExist) || err == nil && info.Mode().IsRegular()
}

// separatedRun reports whether nightly runs as root and works on the users'
// files as them (runSeparated).
func separatedRun() bool { return os.Geteuid() == 0 && privsepChild == "" }

// reportIsRoots refuses, to nightly run as root, a report file (and so its
// state file) that another user controls: the root process writes them
// itself, and a user could swap the names in their own folder.
func reportIsRoots(report string) error {
	c, err := pathController(report)
	switch {
	case err != nil:
		return &usageError{fmt.Sprintf("--report %v", err)}
	case !c.isRoot():
		return usagef("--report %s: %s controls that path; run as root, nightly writes its report and state file only where only root may (e.g. /var/log/pitool/nightly.json)", report, c)
	}
	return nil
}

// nightlyGCPercent is nightly's collector target: Go's default. A nightly
// run works through many small sessions, where a larger target is mostly
// garbage: over 10,000 sessions the peak was 92–122 MiB at 200 and 56 MiB at
// 100, for about a quarter more CPU (bench/README.md, issue 16). $GOGC
// overrides it.
const nightlyGCPercent = 100

// Until a file needs the full work, nightly collects only at pitool's soft
// memory limit (collectAtTheLimit: 200 MiB, or the live heap and its
// headroom): the walk, the state file and the files it remembers unchanged
// make garbage the run would collect for nothing. At Go's default target the
// collector was a fifth of a second run over 10,000 files remembered; at 400
// (the setting before) still 4-7% (issue 28). The first file worked on in
// full sets nightlyGCPercent (nightlyRun.fullWork). $GOGC and $GOMEMLIMIT
// override it.

func runNightly(ctx context.Context, e *env, run *nightlyRun) error {
	if run.worker {
		return runNightlyWorker(ctx, e, run)
	}
	separated := separatedRun()
	if separated && reportIsFile(run.report) {
		if err := reportIsRoots(run.report); err != nil {
			return err
		}
	}
	if !run.dryRun && reportIsFile(run.report) {
		run.state = openState(e, run)
		run.found = foundArchives(run.targets)
	}
	rep := &nightlyReport{dir: run.dir, dirs: run.dirs, started: time.Now(), dryRun: run.dryRun, planned: len(run.targets),
		files: make([]fileReport, 0, len(run.targets))}
	bar := progress.New(e.stderr, len(run.targets), "nightly")
	add := func(r fileReport) {
		if r.notSession != nil {
			noteSkipped(e, r.notSession)
		}
		if r.action == actFailed && errors.Is(r.err, context.Canceled) {
			r = r.did(actInterrupted, "interrupted")
		}
		if r.action == actFailed {
			e.errorf("%s", fileError(r.file, r.err))
		}
		rep.files = append(rep.files, r)
	}
	if separated {
		rep.separated = true
		// the results wait in the report's own slice until added to it
		rep.workers = runSeparated(ctx, e, run, rep.files[:len(run.targets)], func() { bar.Add(1) }, add)
	} else {
		parallel.InOrder(ctx, len(run.targets), run.jobs, func(i int) fileReport {
			return nightlyFile(ctx, run, run.targets[i])
		}, func(_ int, r fileReport) {
			bar.Add(1)
			add(r)
		})
	}
	bar.Finish()
	rep.finished, rep.interrupted = time.Now(), ctx.Err() != nil
	err := writeOutput(e, run.report, nil, func(w io.Writer) error { return rep.writeJSON(w, run) })
	e.infof("nightly: %s", rep.summary())
	if serr := run.state.Save(); serr != nil {
		e.infof("nightly: %v; the next run works on every file in full", serr)
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	case rep.count(actFailed) > 0:
		return &findingsError{fmt.Sprintf("%d of %d files failed", rep.count(actFailed), len(rep.files))}
	}
	return nil
}

// nightlyFile runs the steps on one file and reports what it did (with
// --dry-run: what it would do). A file the state file remembers, still with
// the stamp it had then, costs a stat.
func nightlyFile(ctx context.Context, run *nightlyRun, t target) fileReport {
	r := fileReport{file: t.path}
	if t.special != nil {
		r.notSession = t.special
		return r.did(actSkipped, t.special.Describe())
	}
	if t.outside {
		return r.did(actSkipped, outsideReason(t.root))
	}
	if r, done := awaitsPlain(r, t.path); done {
		return r
	}
	if run.state == nil {
		return nightlySteps(ctx, run, t, r)
	}
	prev, s, ok := run.remembered(t)
	if ok {
		run.cleanFolderOnce(filepath.Dir(t.path))
		run.state.Keep(prev)
		return rememberedReport(prev, t.path)
	}
	r = nightlySteps(ctx, run, t, r)
	if s.ok {
		record(run.state, r, s.stamp, s.at)
	}
	return r
}

// stillDecided reports whether what a file's bytes decided last time is still
// the decision now: the steps that depend on the time (live, archive) would
// not act on it, and no interrupted archive of it is left. It reads the
// clock only when the time the walk began does not decide: a file idle
// long enough then is now, and without --archive-after nothing else
// depends on the time (a clock read per file remembered: issue 28).
func stillDecided(run *nightlyRun, t target, s nightstate.Stamp) bool {
	mtime := time.Unix(0, s.MtimeNs)
	idle := run.walked.Sub(mtime) // at most the idle time now
	if idle < t.idle || run.archiveAfter > 0 {
		idle = time.Since(mtime)
	}
	if idle < t.idle || (run.archiveAfter > 0 && idle >= run.archiveAfter && strings.HasSuffix(t.path, ".jsonl")) {
		return false
	}
	return !run.interruptedArchive(t)
}

// nightlySteps runs the steps on one file: a damaged file is repaired
// first, then archived when it is idle long enough, or else compacted when
// due; a file repair cannot make valid is neither. With --dry-run the
// repair is made in memory, and the archive and compaction are decided on
// its bytes, as the real run will decide them on the repaired file.
func nightlySteps(ctx context.Context, run *nightlyRun, t target, r fileReport) fileReport {
	run.fullWork.Do(func() { gcPercentUnlessSet(nightlyGCPercent) })
	if g, ok := nightlyGate(r); !ok {
		return g // not a Pi session: no step may change it
	}
	if r, done := recoverInterrupted(r, t.path, run.dryRun); done {
		return r
	}
	idle, err := idleFor(t.path)
	switch {
	case err != nil:
		return r.failed(err)
	case idle < t.idle:
		return r.did(actLive, fmt.Sprintf("modified %s ago", idle.Round(time.Second)))
	}
	r, fixed, ok := validateAndRepair(ctx, r, t.path, run.dryRun)
	if !ok {
		return r
	}
	if run.archiveAfter > 0 && idle >= run.archiveAfter && archivableNow(t.path, fixed) {
		return archiveStep(r, t.path, run.dryRun)
	}
	return r.compacted(compactStep(ctx, t.path, fixed, run.opts))
}

// archiveStep archives path (with dryRun: says it would).
func archiveStep(r fileReport, path string, dryRun bool) fileReport {
	if dryRun {
		return r.did(actArchived, path+archive.Suffix)
	}
	dst, err := archive.Archive(path)
	if err != nil {
		return r.failed(err)
	}
	return r.did(actArchived, dst)
}

// compactStep compacts path, or with --dry-run plans its compaction: on
// fixed, the bytes its repair would leave, when it has any.
func compactStep(ctx context.Context, path string, fixed []byte, opts compactor.Options) compactor.Outcome {
	if fixed == nil {
		return compactor.CompactFile(ctx, path, opts)
	}
	opts.Stdin = bytes.NewReader(fixed)
	o := compactor.CompactFile(ctx, jsonl.StdinName, opts)
	o.File = path
	return o
}

// outsideReason is why a file reached through a symlink out of dir is not
// written to.
func outsideReason(dir string) string {
	return fmt.Sprintf("symlink leads outside %s; name it to write through it", dir)
}
