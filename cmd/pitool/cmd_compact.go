package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// compactRun is what a compact run needs besides the compactor's options.
type compactRun struct {
	opts    compactor.Options
	targets []target
	jobs    int
	json    bool
	refused int // named files that are not Pi sessions
}

// compactOptions are compact's flags.
type compactOptions struct {
	batchOptions
	json, plan bool
	leaf       string
}

func (o *compactOptions) flags() []cli.Flag {
	return append(o.batchOptions.flags(),
		&cli.BoolFlag{Name: "json", Usage: "print JSON, one object per file and a last one with the totals", Destination: &o.json},
		&cli.BoolFlag{Name: "plan", Usage: "print the decision and preparation per file; write nothing", Destination: &o.plan},
		&cli.StringFlag{Name: "leaf", Usage: "compact at entry `ID` instead of the active leaf (one file only)", Destination: &o.leaf},
	)
}

func compactCommand(e *env) *cli.Command {
	opts := &compactOptions{}
	return &cli.Command{
		Name:      "compact",
		Usage:     "append a compaction entry to sessions whose context is too long, with Pi's rules",
		ArgsUsage: "FILE|DIR...",
		Description: `For every session file (folders are searched recursively), decides whether
compaction is due (the context leaves fewer than --reserve-tokens of
--context-window free) and, with Pi 1.6.0's rules, where to cut: a tool call is
never separated from its result, and a split turn gets its own prefix summary.
The summarizer's text becomes one compaction entry appended to the file exactly
as Pi appends one, so Pi resumes it with the compacted context.

Files are appended to under a lock, only if they did not change while the
summary was made; files modified less than --min-idle ago are skipped.

The table has a row per file and fits the terminal's width; after a run its
TOTAL row sums the context tokens before and after (a file left alone counts as
it was in both) and the summarizer's TIME. --json's totals count the compacted
files' tokens only.

--plan writes nothing: per file it prints the decision and the preparation
(with --json: firstKeptEntryId, isSplitTurn, tokensBefore, previousSummary,
messagesToSummarize, turnPrefixMessages, summarizeText, turnPrefixText and
files, as Pi's own compaction prepares them). --plan accepts - for stdin.

Summarizers: extractive (default, offline), openai (any OpenAI-compatible
chat-completions endpoint: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL),
anthropic (ANTHROPIC_API_KEY, ANTHROPIC_MODEL), command (--command 'pi -p').

Exit status: 0 when every file was handled (compacted, not due or skipped),
1 when some file failed, 2 for usage errors, 130 when interrupted.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			run, err := newCompactRun(e, opts, c.Args().Slice())
			if err != nil {
				return err
			}
			return runCompact(c.Context, e, run)
		}),
	}
}

func newCompactRun(e *env, o *compactOptions, paths []string) (*compactRun, error) {
	if len(paths) == 0 {
		return nil, usagef("compact needs at least one FILE or DIR")
	}
	opts, err := o.compactorOptions()
	if err != nil {
		return nil, err
	}
	opts.Plan, opts.Leaf, opts.Stdin = o.plan, o.leaf, e.stdin
	targets, err := batchTargets(paths, o.shard, o.minIdle, o.minIdleGiven)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 && o.shard.n <= 1 {
		return nil, noFilesError(paths)
	}
	if opts.Leaf != "" && (len(targets) != 1 || len(paths) != 1) {
		return nil, usagef("--leaf needs exactly one FILE")
	}
	opts.Messages = opts.Plan && o.json // the plan's JSON prints the summarizer's input
	return &compactRun{opts: opts, targets: targets, jobs: o.jobs, json: o.json}, nil
}

// batchGCPercent is the garbage collector target of batch commands: they
// decode a whole context per file and keep little, so a larger target trades
// some memory for less collection work. $GOGC overrides it.
const batchGCPercent = 400

func tuneGC() { gcPercentUnlessSet(batchGCPercent) }

// collectAtTheLimit is the collector setting of compact --plan on several
// files: with pitool's own soft memory limit in effect (GOMEMLIMIT unset: the
// 200 MiB floor that follows the live heap, see main.go) the collector runs
// only when the heap
// reaches that limit, so memory stays bounded by it while a batch of small
// plans, which only read and decode, collects far less often. On 200 files
// of 1-4 MB (2026-12-02, quiet machine, scripts/bench-batch.sh, 6 rounds)
// -j 2 gave 1.72-1.84x the throughput of -j 1, peak 203-212 MiB, against
// 1.53-1.82x (mostly 1.62-1.65x), 50-174 MiB, at GOGC=400. Real compaction
// keeps tuneGC: collecting at the limit there cost -j 2 8-15% more CPU per
// file (1.57-1.76x against 1.61-2.04x). Without pitool's limit, or with
// $GOGC set, a plan is tuneGC too, and so is the plan of one file: on a
// 600 MB session the heap's fresh pages cost it 0.8 s of system time.
func collectAtTheLimit() {
	if os.Getenv("GOMEMLIMIT") != "" || debug.SetMemoryLimit(-1) == math.MaxInt64 {
		tuneGC()
		return
	}
	gcPercentUnlessSet(-1)
}

// gcPercentUnlessSet sets the collector's target to percent unless $GOGC
// gives one.
func gcPercentUnlessSet(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}

func runCompact(ctx context.Context, e *env, run *compactRun) error {
	if run.opts.Plan && len(run.targets) > 1 {
		collectAtTheLimit()
	} else {
		tuneGC()
	}
	var rows []compactRow
	var werr error
	// the report never stops the run: every file in flight is listed, and
	// finishCompact says why the run ended (Ctrl-C, a failed write)
	_ = runner.Run(ctx, run.targets, runner.Options{Progress: e.stderr, Label: "compact", Jobs: run.jobs},
		func(ctx context.Context, t target) compactor.Outcome { return compactTarget(ctx, run, t) },
		func(t target, o compactor.Outcome) error {
			run.refused += noteCompactSkip(e, o, t.named)
			if ctx.Err() != nil && o.Status == compactor.Failed {
				o.Status, o.Reason = statusInterrupted, "interrupted"
			}
			if o.Status == compactor.Failed {
				e.errorf("%s", fileError(o.File, o.Err))
			}
			if run.json && werr == nil {
				werr = writeJSONLine(e, outcomeJSON(o, run.opts.Plan))
			}
			rows = append(rows, rowOf(o))
			return nil
		})
	return finishCompact(ctx, e, run, rows, werr)
}

// statusInterrupted is the status of a file in flight at Ctrl-C: left as it
// was, or with its compaction entry appended, never half-written.
const statusInterrupted compactor.Status = "interrupted"

// compactTarget compacts one file, unless it is reached through a symlink
// that leads out of the folder named, which is never written through.
func compactTarget(ctx context.Context, run *compactRun, t target) compactor.Outcome {
	if t.special != nil {
		return compactor.Outcome{File: t.path, Status: compactor.Skipped, Reason: t.special.Describe(), Err: t.special}
	}
	if t.outside && !run.opts.Plan {
		return compactor.Outcome{File: t.path, Status: compactor.Skipped, Reason: outsideReason(t.root)}
	}
	o := run.opts
	o.MinIdle = t.idle
	return compactor.CompactFile(ctx, t.path, o)
}

func finishCompact(ctx context.Context, e *env, run *compactRun, rows []compactRow, werr error) error {
	t := totalsOf(rows, run.opts.Plan)
	if werr == nil && run.json {
		werr = writeJSONLine(e, t.json())
		e.infof("compact: %s", totalsLine(t)) // the table prints this line on stdout
	} else if werr == nil {
		werr = printCompactTable(e, rows, t)
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case werr != nil:
		return werr
	case run.refused > 0:
		return fmt.Errorf("%d of %d files are not Pi sessions; nothing was written to them", run.refused, len(rows))
	case t.failed > 0:
		return &findingsError{fmt.Sprintf("%d of %d files failed", t.failed, len(rows))}
	}
	return nil
}

// outcomeJSON is one file's line of --json output.
func outcomeJSON(o compactor.Outcome, plan bool) []byte {
	obj := jsonl.ObjectOf("file", jsonl.QuoteString(o.File), "status", jsonl.QuoteString(string(o.Status)), "due", boolRaw(o.Due))
	if o.Reason != "" {
		obj.Set("reason", jsonl.QuoteString(o.Reason))
	}
	if plan && o.Prep != nil {
		fields := o.Prep.PlanFields()
		obj.Keys, obj.Vals = append(obj.Keys, fields.Keys...), append(obj.Vals, fields.Vals...)
		setRequest(&obj, o.Request)
		return obj.AppendJSON(nil)
	}
	obj.Set("tokensBefore", intRaw(o.TokensBefore))
	if o.Status == compactor.Compacted {
		obj.Set("tokensAfter", intRaw(o.TokensAfter))
		obj.Set("keptEntries", intRaw(o.KeptEntries))
		obj.Set("isSplitTurn", boolRaw(o.Prep.IsSplitTurn))
		obj.Set(jsonl.RefFirstKept.String(), jsonl.QuoteString(o.Prep.FirstKeptEntryID))
		obj.Set("entryId", jsonl.QuoteString(o.EntryID))
		obj.Set("summarizerMs", intRaw(int(o.Elapsed/time.Millisecond)))
	}
	setRequest(&obj, o.Request)
	return obj.AppendJSON(nil)
}

// setRequest adds what the compaction does to Pi's next request, when it was
// checked: "request" is the verdict --plan prints, "requestProblems" counts
// the refused tool results before, fixed, left and added.
func setRequest(obj *jsonl.Object, v *compactor.RequestVerdict) {
	if v == nil {
		return
	}
	obj.Set("request", jsonl.QuoteString(v.String()))
	obj.Set("requestProblems", jsonl.ObjectOf("before", intRaw(v.Before), "fixed", intRaw(v.Fixed),
		"left", intRaw(v.Left), "added", intRaw(len(v.Added))).AppendJSON(nil))
}

func intRaw(n int) jsonl.RawMessage { return strconv.AppendInt(nil, int64(n), 10) }

func boolRaw(b bool) jsonl.RawMessage { return strconv.AppendBool(nil, b) }
