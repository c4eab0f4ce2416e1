package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
	"github.com/urfave/cli/v2"
)

// validateOptions are validate's flags, bound to its fields (the options
// pattern: flags() binds, validate() checks).
type validateOptions struct {
	json       bool
	maxPerCode int
	quiet      bool
}

func (o *validateOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print one JSON report per file, one per line", Destination: &o.json},
		&cli.IntFlag{Name: "max-per-code", Value: repair.DefaultMaxPerCode, Usage: "findings shown per code and file (the rest are counted); -1 for all", Destination: &o.maxPerCode},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the summary (and errors)", Destination: &o.quiet},
	}
}

// validate checks what the flags' types cannot: nothing, for validate.
func (o *validateOptions) validate() error { return nil }

func validateCommand(e *env) *cli.Command {
	opts := &validateOptions{}
	return &cli.Command{
		Name:      "validate",
		Usage:     "find damage in session files: framing, JSON, header, ids, parents, tool pairing, references",
		ArgsUsage: "PATH…",
		Description: `Checks session files (folders are searched for *.jsonl, *.jsonl.gz and
*.jsonl.zst; - reads stdin) in one streaming pass plus checks over the entry
tree. Each finding has a stable code (header.missing, line.truncated,
line.joined, ids.duplicate-conflict, parents.dangling, parents.cycle,
tools.unanswered…), a severity, the line and byte offset, a message, and the
pitool repair command that fixes it.

Severities: error (Pi loses or cannot load data), warning (damage Pi
tolerates), info (a legacy format Pi migrates, a run interrupted mid-turn);
info notes alone do not make validate fail.

A Pi session starts with a header or, when damaged, with lines that are Pi
entries; binary files and other JSONL are not sessions. Such files found in
folders are listed as skipped, with the reason, and counted in the summary;
one named on the command line is an error.

Exit status: 0 clean (info notes at most), 1 errors or warnings found,
2 a file could not be read, is not a Pi session, or a usage error.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("validate needs at least one PATH (or - for stdin)")
			}
			return runValidate(c, e, *opts, c.Args().Slice())
		}),
	}
}

// validateTally counts what a validate run found.
type validateTally struct {
	runner.Tally
	clean  int
	counts map[repair.Severity]int
}

func runValidate(c *cli.Context, e *env, opts validateOptions, paths []string) error {
	// a file linked under several names is checked under each, as Pi lists each
	targets, _ := runner.Expand(paths, runner.ExpandOptions{EveryPath: true, KeepErrors: true})
	t := validateTally{counts: map[repair.Severity]int{}}
	err := runner.Each(c.Context, targets, validateRun(e, opts), func(tg runner.Target) error {
		return validateTarget(c, e, opts, tg, &t)
	})
	if err != nil {
		return err
	}
	printValidateSummary(e, opts, t)
	switch {
	case t.Files == 0 && t.Skipped == 0:
		return noFilesError(paths)
	case t.Failed > 0 && t.Files == 1:
		return errReported
	case t.Failed > 0:
		return fmt.Errorf("%d of %d files could not be read", t.Failed, t.Files)
	case t.counts[repair.SevError]+t.counts[repair.SevWarning] > 0:
		return &findingsError{"findings"}
	}
	return nil
}

// validateRun draws the bar on a terminal's stderr when findings are not
// being printed on the same terminal.
func validateRun(e *env, opts validateOptions) runner.Options {
	o := runner.Options{Label: "validate"}
	if opts.quiet || !progress.IsTerminal(e.stdout) {
		o.Progress = e.stderr
	}
	return o
}

func validateTarget(c *cli.Context, e *env, opts validateOptions, tg runner.Target, t *validateTally) error {
	if tg.Err != nil {
		t.Files++
		return noteUnreadable(e, opts, tg.Path, tg.Err, t)
	}
	return validateOne(c, e, opts, tg, t)
}

func noteUnreadable(e *env, opts validateOptions, path string, err error, t *validateTally) error {
	t.Failed++
	e.errorf("%s", fileError(path, err))
	return opts.printer(e).Print(runner.Result{Row: runner.FailedRow{File: path, Error: strings.TrimPrefix(fileError(path, err), path+": ")}})
}

// printer prints each file's result on stdout.
func (o validateOptions) printer(e *env) runner.Printer {
	return runner.Printer{Out: e.stdout, JSON: o.json}
}

// validateFile validates one target; a special file is not opened.
func validateFile(c *cli.Context, e *env, opts validateOptions, tg runner.Target) (*repair.Report, error) {
	if ns := tg.Special(); ns != nil {
		return nil, ns
	}
	return repair.ValidateFile(c.Context, tg.Path, e.stdin, repair.ValidateOptions{MaxPerCode: opts.maxPerCode})
}

func validateOne(c *cli.Context, e *env, opts validateOptions, tg runner.Target, t *validateTally) error {
	path := tg.Path
	rep, err := validateFile(c, e, opts, tg)
	if c.Context.Err() != nil {
		return c.Context.Err()
	}
	if ns, ok := jsonl.IsNotSession(err); ok && !tg.Named {
		t.Skipped++
		if opts.quiet && !opts.json {
			return nil
		}
		return opts.printer(e).Print(runner.Skipped(ns))
	}
	t.Files++
	if err != nil {
		return noteUnreadable(e, opts, path, err, t)
	}
	for _, sev := range []repair.Severity{repair.SevError, repair.SevWarning, repair.SevInfo} {
		t.counts[sev] += rep.Count(sev)
	}
	if !rep.HasProblems() {
		t.clean++
	}
	r := runner.Result{Row: rep}
	if !opts.quiet {
		r.Text = func(w io.Writer) error { printFindings(w, rep); return nil }
	}
	return opts.printer(e).Print(r)
}

func printFindings(w io.Writer, rep *repair.Report) {
	for _, f := range rep.Findings {
		printLine(w, "%s:%d (byte %d): %s %s: %s", f.File, f.Line, f.Offset, f.Severity, f.Code, f.Message)
		printLine(w, "    hint: %s", f.Hint)
	}
	for code, n := range rep.Suppressed {
		printLine(w, "%s: %d more %s findings not shown (--max-per-code -1 shows all)", rep.File, n, code)
	}
}

func printValidateSummary(e *env, opts validateOptions, t validateTally) {
	w := e.stdout
	if opts.json {
		w = e.stderr
	}
	fmt.Fprintf(w, "%s checked: %d clean, %d with findings, %d unreadable (%s, %s, %s)%s\n",
		textout.Count(t.Files, "file"), t.clean, t.Files-t.clean-t.Failed, t.Failed,
		textout.Count(t.counts[repair.SevError], "error"), textout.Count(t.counts[repair.SevWarning], "warning"),
		textout.Count(t.counts[repair.SevInfo], "note"), t.SkippedNote())
}

// errNoFiles is returned when folders held no session files.
var errNoFiles = errors.New("no session files (*.jsonl, *.jsonl.gz, *.jsonl.zst) found")
