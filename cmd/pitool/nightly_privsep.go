package main

// nightly run as root (issue 25, see privsep.go): the root process walks the
// folders and keeps the report and the state file; the files are worked on
// by one worker per user who controls some of them, run as that user.
//
// The worker protocol: the worker is this pitool with the same command line
// and $PITOOL_NIGHTLY_WORKER=1. It reads one JSON object on stdin,
// {"files":[{"path":P,"idleNs":N,"root":DIR},…]}, works on them as nightly does (-j
// workers, no report, no state file) and writes one JSON line per file on
// stdout, in their order, as each finishes: {"i":INDEX,"action":…,"detail":…,
// "damage":[…],"repaired":…,"backup":…,"tokens":{…}}. Its stderr passes
// through (control characters escaped). The root process trusts nothing in
// it but as the data of the report: a file is named by its index in what it
// sent, lines are bounded, an unknown action or index ends the worker's
// results.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/internal/safefile"
)

// workerFile is one file sent to a worker.
type workerFile struct {
	Path   string `json:"path"`
	IdleNs int64  `json:"idleNs"`         // --min-idle for it
	Root   string `json:"root,omitempty"` // the DIR it was found in, which confines its writes
}

type workerRequest struct {
	Files []workerFile `json:"files"`
}

// workerResult is a worker's line for one file.
type workerResult struct {
	I        int           `json:"i"`
	Action   string        `json:"action"`
	Detail   string        `json:"detail,omitempty"`
	Damage   []string      `json:"damage,omitempty"`
	Repaired bool          `json:"repaired,omitempty"`
	Backup   string        `json:"backup,omitempty"`
	Tokens   *workerTokens `json:"tokens,omitempty"`
}

type workerTokens struct {
	Before       int    `json:"before"`
	After        int    `json:"after,omitempty"`
	EntryID      string `json:"entryId,omitempty"`
	SummarizerNs int64  `json:"summarizerNs,omitempty"`
}

// maxWorkerLine bounds a worker's line: a file's result is a few hundred
// bytes, its path and damage codes at most a few KB.
const maxWorkerLine = 1 << 20

// workerReport is what the report says of one worker.
type workerReport struct {
	uid, gid  uint32
	user      string
	files     int
	exit      int
	inProcess bool // root's files, worked on by the root process
}

func resultOf(i int, r fileReport) workerResult {
	res := workerResult{I: i, Action: r.action, Detail: r.detail, Damage: r.damage, Repaired: r.repaired, Backup: r.backup}
	if t := r.tokens; t != nil {
		res.Tokens = &workerTokens{Before: t.before, After: t.after, EntryID: t.entryID, SummarizerNs: int64(t.summarizer)}
	}
	return res
}

// knownActions are the actions a worker may report.
var knownActions = map[string]bool{actInterrupted: true, actRolledBack: true}

func init() {
	for _, a := range actions {
		knownActions[a] = true
	}
}

func (res workerResult) report(path string) (fileReport, error) {
	if !knownActions[res.Action] {
		return fileReport{}, fmt.Errorf("unknown action %q", res.Action)
	}
	r := fileReport{file: path, action: res.Action, detail: res.Detail, damage: res.Damage, repaired: res.Repaired, backup: res.Backup}
	if t := res.Tokens; t != nil {
		r.tokens = &compactTokens{before: t.Before, after: t.After, entryID: t.EntryID, summarizer: time.Duration(t.SummarizerNs)}
	}
	if r.action == actFailed {
		r.err = errors.New(r.detail)
	}
	return r, nil
}

// runNightlyWorker is nightly in a worker: the files from stdin, the results
// on stdout.
func runNightlyWorker(ctx context.Context, e *env, run *nightlyRun) error {
	var req workerRequest
	if err := json.NewDecoder(e.stdin).Decode(&req); err != nil {
		return fmt.Errorf("nightly worker: reading the files on stdin: %w", err)
	}
	run.targets = make([]target, len(req.Files))
	for i, f := range req.Files {
		run.targets[i] = target{path: f.Path, idle: time.Duration(f.IdleNs), root: f.Root}
		if f.Root != "" {
			// as in the root process's walk: a write under DIR stays in it
			if err := safefile.ConfineTree(f.Root); err != nil {
				return fmt.Errorf("nightly worker: %w", err)
			}
		}
	}
	var werr error
	parallel.InOrder(ctx, len(run.targets), run.jobs, func(i int) fileReport {
		return nightlyFile(ctx, run, run.targets[i])
	}, func(i int, r fileReport) {
		if r.notSession != nil {
			noteSkipped(e, r.notSession)
		}
		switch {
		case r.action == actFailed && errors.Is(r.err, context.Canceled):
			r = r.did(actInterrupted, "interrupted")
		case r.action == actFailed && errors.Is(r.err, fs.ErrPermission):
			uid := uint32(os.Getuid())
			r = r.did(actSkipped, fmt.Sprintf("%s, whom nightly runs as for this file, may not: %s; left alone",
				whoIs(uid), r.detail))
		}
		if err := jsonout.Write(e.stdout, resultOf(i, r)); err != nil && werr == nil {
			werr = err
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return werr
}

// workerGroup is the files of one controller.
type workerGroup struct {
	c   controller
	idx []int // into run.targets, in walk order
}

// runSeparated is nightly as root: it works on root's files in this process
// and on each other user's files in one worker run as that user, one after
// another, and calls add for every result in the walk's order (arrived as
// each one comes). Files of a worker that was running when the run was
// interrupted and that it did not report are "interrupted"; files of workers
// not started are not reported (the summary counts them as not started).
// The results wait in results (one per target), which add may append to:
// the i-th is read before it is added, after those before it.
func runSeparated(ctx context.Context, e *env, run *nightlyRun, results []fileReport, arrived func(), add func(fileReport)) []workerReport {
	got := make([]bool, len(run.targets))
	set := func(i int, r fileReport) {
		results[i], got[i] = r, true
		arrived()
	}
	var stamps []stamped // made for the first file worked on in full
	groups := map[uint32]*workerGroup{}
	var order []uint32
	var rootIdx []int
	for i, t := range run.targets {
		if t.special != nil || t.outside {
			set(i, nightlyFile(ctx, run, t)) // no I/O: only says why it is skipped
			continue
		}
		if run.state != nil {
			// first, since it costs one stat: a file remembered still as it
			// was needs no controller, and no worker that would clean its folder
			prev, s, ok := run.remembered(t)
			if ok {
				run.state.Keep(prev)
				set(i, rememberedReport(prev, t.path))
				continue
			}
			if stamps == nil {
				stamps = make([]stamped, len(run.targets))
			}
			stamps[i] = s
		}
		c, err := pathController(t.path)
		if err != nil {
			set(i, fileReport{file: t.path}.failed(err))
			continue
		}
		if c.isRoot() {
			rootIdx = append(rootIdx, i)
			continue
		}
		g := groups[c.uid]
		if g == nil {
			g = &workerGroup{c: c}
			groups[c.uid] = g
			order = append(order, c.uid)
		}
		g.idx = append(g.idx, i)
	}
	var workers []workerReport
	if len(rootIdx) > 0 {
		parallel.InOrder(ctx, len(rootIdx), run.jobs, func(k int) fileReport {
			return nightlyFile(ctx, run, run.targets[rootIdx[k]])
		}, func(k int, r fileReport) { set(rootIdx[k], r) })
		workers = append(workers, workerReport{user: "root", files: len(rootIdx), inProcess: true})
	}
	for _, uid := range order {
		if ctx.Err() != nil {
			break
		}
		workers = append(workers, runWorker(ctx, e, run, groups[uid], stamps, set))
	}
	for i, r := range results {
		if got[i] {
			add(r)
		}
	}
	return workers
}

func withRanAs(r fileReport, uid uint32) fileReport {
	r.ranAs = &uid
	return r
}

// runWorker runs the worker for g's files as g's controller and sets each
// file's result.
func runWorker(ctx context.Context, e *env, run *nightlyRun, g *workerGroup, stamps []stamped, set func(int, fileReport)) workerReport {
	cred := credential(g.c)
	wr := workerReport{uid: cred.Uid, gid: cred.Gid, user: userName(cred.Uid), files: len(g.idx)}
	as := whoIs(wr.uid)
	req := workerRequest{Files: make([]workerFile, len(g.idx))}
	for k, i := range g.idx {
		t := run.targets[i]
		req.Files[k] = workerFile{Path: t.path, IdleNs: int64(t.idle)}
		if !t.named {
			req.Files[k].Root = t.root
		}
	}
	body, err := jsonout.Marshal(req)
	if err != nil {
		panic(err) // strings and numbers
	}
	cmd, started, err := childCommand(ctx, cred, run.args, nightlyWorkerEnv+"=1")
	var out io.ReadCloser
	if err == nil {
		cmd.Stdin, cmd.Stderr = bytes.NewReader(body), cleanWriter{e.stderr}
		if out, err = cmd.StdoutPipe(); err == nil {
			err = cmd.Start()
		}
		started(err)
	}
	if err != nil {
		for _, i := range g.idx {
			set(i, withRanAs(fileReport{file: run.targets[i].path}.failed(fmt.Errorf("cannot start a worker as %s: %w", as, err)), wr.uid))
		}
		wr.exit = exitUsage
		return wr
	}
	got := make([]bool, len(g.idx))
	rerr := readLines(out, maxWorkerLine, func(line []byte) error {
		var res workerResult
		if err := json.Unmarshal(line, &res); err != nil {
			return err
		}
		if res.I < 0 || res.I >= len(g.idx) || got[res.I] {
			return fmt.Errorf("a result for file %d of %d, or twice", res.I, len(g.idx))
		}
		i := g.idx[res.I]
		r, err := res.report(run.targets[i].path)
		if err != nil {
			return err
		}
		got[res.I] = true
		if stamps[i].ok {
			record(run.state, r, stamps[i].stamp, stamps[i].at)
		}
		set(i, withRanAs(r, wr.uid))
		return nil
	})
	if rerr != nil {
		e.errorf("nightly: the worker run as %s sent a line that is not a result (%v); the rest of its output is ignored", as, rerr)
		io.Copy(io.Discard, out)
	}
	if werr := cmd.Wait(); werr != nil {
		wr.exit = exitStatus(werr)
	}
	for k, i := range g.idx {
		switch {
		case got[k]:
		case ctx.Err() != nil:
			set(i, withRanAs(fileReport{file: run.targets[i].path}.did(actInterrupted, "interrupted"), wr.uid))
		default:
			set(i, withRanAs(fileReport{file: run.targets[i].path}.failed(
				fmt.Errorf("the worker run as %s ended (exit %s) before reporting this file", as, strconv.Itoa(wr.exit))), wr.uid))
		}
	}
	return wr
}
