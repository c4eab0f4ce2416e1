package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
	"github.com/urfave/cli/v2"
)

type validateOptions struct {
	json       bool
	maxPerCode int
	quiet      bool
}

func validateCommand(e *env) *cli.Command {
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
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON report per file, one per line"},
			&cli.IntFlag{Name: "max-per-code", Value: repair.DefaultMaxPerCode, Usage: "findings shown per code and file (the rest are counted); -1 for all"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the summary (and errors)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("validate needs at least one PATH (or - for stdin)")
			}
			opts := validateOptions{json: c.Bool("json"), maxPerCode: c.Int("max-per-code"), quiet: c.Bool("quiet")}
			return runValidate(c, e, opts, c.Args().Slice())
		},
	}
}

// validateTally counts what a validate run found.
type validateTally struct {
	files, clean, unreadable int
	skipped                  int // files in folders that are not Pi sessions
	counts                   map[repair.Severity]int
}

func runValidate(c *cli.Context, e *env, opts validateOptions, paths []string) error {
	targets := expandTargets(paths)
	t := validateTally{counts: map[repair.Severity]int{}}
	bar := validateProgress(e, opts, len(targets))
	for _, tg := range targets {
		if err := validateTarget(c, e, opts, tg, &t); err != nil {
			bar.Finish()
			return err
		}
		bar.Add(1)
	}
	bar.Finish()
	printValidateSummary(e, opts, t)
	switch {
	case t.files == 0 && t.skipped == 0:
		return noFilesError(paths)
	case t.unreadable > 0 && t.files == 1:
		return errReported
	case t.unreadable > 0:
		return fmt.Errorf("%d of %d files could not be read", t.unreadable, t.files)
	case t.counts[repair.SevError]+t.counts[repair.SevWarning] > 0:
		return &findingsError{"findings"}
	}
	return nil
}

// valTarget is one file to validate, or a path that could not be expanded.
type valTarget struct {
	path  string
	named bool // named by the user, not found in a folder
	err   error
	// special is set for a file found in a folder that is not a regular
	// file: it is listed as skipped and never opened.
	special *jsonl.NotSessionError
}

// expandTargets lists the session files of every path (folders searched
// recursively, a file linked under several names checked under each, as
// Pi lists each); a path that cannot be read is kept with its error.
func expandTargets(paths []string) []valTarget {
	var out []valTarget
	for _, p := range paths {
		files, err := sessionfiles.ExpandEveryPath([]string{p})
		if err != nil {
			out = append(out, valTarget{path: p, err: err})
			continue
		}
		for _, f := range files {
			out = append(out, valTarget{path: f.Path, named: f.Named, special: f.NotRegular()})
		}
	}
	return out
}

// validateProgress shows a bar on a terminal's stderr when findings are not
// being printed on the same terminal.
func validateProgress(e *env, opts validateOptions, n int) *progress.Bar {
	if n < 2 || (progress.IsTerminal(e.stdout) && !opts.quiet) {
		return nil
	}
	return progress.New(e.stderr, n, "validate")
}

func validateTarget(c *cli.Context, e *env, opts validateOptions, tg valTarget, t *validateTally) error {
	if tg.err != nil {
		t.files++
		return noteUnreadable(e, opts, tg.path, tg.err, t)
	}
	return validateOne(c, e, opts, tg, t)
}

func noteUnreadable(e *env, opts validateOptions, path string, err error, t *validateTally) error {
	t.unreadable++
	e.errorf("%s", fileError(path, err))
	if opts.json {
		return writeJSON(e.stdout, map[string]string{"file": path, "error": strings.TrimPrefix(fileError(path, err), path+": ")})
	}
	return nil
}

// validateFile validates one target; a special file is not opened.
func validateFile(c *cli.Context, e *env, opts validateOptions, tg valTarget) (*repair.Report, error) {
	if tg.special != nil {
		return nil, tg.special
	}
	return repair.ValidateFile(c.Context, tg.path, e.stdin, repair.ValidateOptions{MaxPerCode: opts.maxPerCode})
}

func validateOne(c *cli.Context, e *env, opts validateOptions, tg valTarget, t *validateTally) error {
	path := tg.path
	rep, err := validateFile(c, e, opts, tg)
	if c.Context.Err() != nil {
		return c.Context.Err()
	}
	if ns, ok := jsonl.IsNotSession(err); ok && !tg.named {
		t.skipped++
		if opts.quiet && !opts.json {
			return nil
		}
		return printSkipped(e.stdout, opts.json, ns)
	}
	t.files++
	if err != nil {
		return noteUnreadable(e, opts, path, err, t)
	}
	for _, sev := range []repair.Severity{repair.SevError, repair.SevWarning, repair.SevInfo} {
		t.counts[sev] += rep.Count(sev)
	}
	if !rep.HasProblems() {
		t.clean++
	}
	if opts.json {
		return writeJSON(e.stdout, rep)
	}
	if !opts.quiet {
		printFindings(e.stdout, rep)
	}
	return nil
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	out, err := jsonout.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
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
	skipped := ""
	if t.skipped > 0 {
		skipped = fmt.Sprintf("; %d skipped: not Pi sessions", t.skipped)
	}
	fmt.Fprintf(w, "%s checked: %d clean, %d with findings, %d unreadable (%s, %s, %s)%s\n",
		textout.Count(t.files, "file"), t.clean, t.files-t.clean-t.unreadable, t.unreadable,
		textout.Count(t.counts[repair.SevError], "error"), textout.Count(t.counts[repair.SevWarning], "warning"),
		textout.Count(t.counts[repair.SevInfo], "note"), skipped)
}

// plural is one when n is 1, else many (textout.Choose).
func plural(n int, one, many string) string {
	return textout.Choose(n, one, many)
}

// errNoFiles is returned when folders held no session files.
var errNoFiles = errors.New("no session files (*.jsonl, *.jsonl.gz, *.jsonl.zst) found")
