package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/pitool/pitool/repair"
	"github.com/urfave/cli/v2"
)

type repairOptions struct {
	repair.Options
	json bool
}

func repairCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "repair",
		Usage:     "repair damaged session files, keeping every byte that can be saved",
		ArgsUsage: "FILE…",
		Description: `Fixes what validate finds: keeps the complete lines before a torn tail,
splits joined entries, strips a byte-order mark, NULs and CRs, recreates a
missing header, drops a repeated header and entries repeated byte for byte,
gives conflicting duplicate ids fresh ids, re-attaches dangling or cyclic
parents to the entry before them, makes a compaction whose firstKeptEntryId
is lost retain-none (what Pi already shows), migrates v1/v2 files to v3, and
with --close-tool-calls answers interrupted tool calls with error results.

Lines that need no change are copied byte for byte. Bytes that cannot be
saved (garbage, torn entries, tool results whose call is lost) go to a
quarantine file beside the output: OUT.quarantine.

Output goes to stdout, to -o OUT, or with --in-place back to FILE (atomically,
keeping FILE.bak). --dry-run prints the fixes and writes nothing. A file
modified in the last minute may belong to a live Pi session: repair refuses
it unless --force.

Exit status: 0 repaired (or nothing to do), 1 findings remain that repair
does not fix (listed on stderr), 2 usage error or unreadable input.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the repaired session to `OUT` (- for stdout)"},
			&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "replace FILE atomically, keeping FILE.bak"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print what would change, write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "the file may belong to a live Pi session; write anyway"},
			&cli.BoolFlag{Name: "close-tool-calls", Usage: "answer unanswered tool calls with error results"},
			&cli.StringFlag{Name: "quarantine", Usage: "write unsaveable bytes to `FILE` (default OUT.quarantine)"},
			&cli.BoolFlag{Name: "json", Usage: "print each file's result as one JSON object on stderr (stdout with --dry-run)"},
		},
		Action: func(c *cli.Context) error {
			opts, err := repairFlags(c, e)
			if err != nil {
				return err
			}
			return runRepair(c, e, opts, c.Args().Slice())
		},
	}
}

func repairFlags(c *cli.Context, e *env) (repairOptions, error) {
	o := repairOptions{json: c.Bool("json"), Options: repair.Options{
		Output: c.String("output"), Stdout: e.stdout, InPlace: c.Bool("in-place"), DryRun: c.Bool("dry-run"),
		Force: c.Bool("force"), CloseToolCalls: c.Bool("close-tool-calls"), Quarantine: c.String("quarantine"),
	}}
	modes := 0
	for _, set := range []bool{o.Output != "", o.InPlace, o.DryRun} {
		if set {
			modes++
		}
	}
	switch {
	case c.NArg() == 0:
		return o, usagef("repair needs at least one FILE (or - for stdin)")
	case modes > 1:
		return o, usagef("-o, --in-place and --dry-run exclude each other")
	case c.NArg() > 1 && !o.InPlace && !o.DryRun:
		return o, usagef("repair of several files needs --in-place or --dry-run")
	case c.NArg() > 1 && o.Quarantine != "":
		return o, usagef("--quarantine takes one FILE")
	}
	return o, nil
}

func runRepair(c *cli.Context, e *env, opts repairOptions, files []string) error {
	remaining := 0
	for _, f := range files {
		f, err := sessionArg(c, f)
		if err != nil {
			return err
		}
		if isDir(f) {
			return fmt.Errorf("%s: is a directory", f)
		}
		res, err := repair.RepairFile(c.Context, f, e.stdin, opts.Options)
		if err != nil {
			return err
		}
		if err := reportRepair(e, opts, res); err != nil {
			return err
		}
		remaining += len(res.Remaining)
	}
	if remaining > 0 {
		return &findingsError{"findings remain"}
	}
	return nil
}

func reportRepair(e *env, opts repairOptions, res *repair.Result) error {
	w := e.stderr
	if opts.DryRun {
		w = e.stdout
	}
	if opts.json {
		return writeJSON(w, res)
	}
	printRepair(w, opts, res)
	return nil
}

func printRepair(w io.Writer, opts repairOptions, res *repair.Result) {
	verb := "fixed"
	if opts.DryRun {
		verb = "would fix"
	}
	if len(res.Fixes) == 0 {
		printLine(w, "%s: nothing to repair", res.File)
	}
	for _, f := range res.Fixes {
		printLine(w, "%s:%d: %s %s: %s", res.File, f.Line, verb, f.Code, f.Message)
	}
	for _, f := range res.Remaining {
		printLine(w, "%s:%d: left %s %s: %s (%s)", res.File, f.Line, f.Severity, f.Code, f.Message, f.Hint)
	}
	printUnlisted(w, res)
	if res.Quarantine != "" {
		printLine(w, "%s: %d bytes that could not be saved are in %s", res.File, res.QuarantineBytes, res.Quarantine)
	}
	if res.Backup != "" {
		printLine(w, "%s: the original is kept as %s", res.File, res.Backup)
	}
}

// printUnlisted says how many fixes and findings of each code the result
// leaves out (beyond repair.MaxFixesPerCode).
func printUnlisted(w io.Writer, res *repair.Result) {
	codes := make([]string, 0, len(res.Unlisted))
	for code := range res.Unlisted {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		printLine(w, "%s: %d more %s not listed", res.File, res.Unlisted[code], code)
	}
}
