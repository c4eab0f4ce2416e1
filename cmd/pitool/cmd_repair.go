package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/repair"
	"github.com/urfave/cli/v2"
)

// repairOptions are repair's flags, bound to its fields (the options
// pattern: flags() binds, validate() checks what the types cannot).
type repairOptions struct {
	repair.Options
	json bool
}

func (o *repairOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the repaired session to `OUT` (- for stdout)", Destination: &o.Output},
		&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "replace FILE atomically, keeping FILE.bak", Destination: &o.InPlace},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print what would change, write nothing", Destination: &o.DryRun},
		&cli.BoolFlag{Name: "force", Usage: "the file may belong to a live Pi session, or -o names another Pi session; write anyway (never over FILE)", Destination: &o.Force},
		&cli.BoolFlag{Name: "close-tool-calls", Usage: "answer unanswered tool calls with error results", Destination: &o.CloseToolCalls},
		&cli.StringFlag{Name: "quarantine", Usage: "write unsaveable bytes to `FILE` (default OUT.quarantine)", Destination: &o.Quarantine},
		&cli.BoolFlag{Name: "json", Usage: "print each file's result as one JSON object on stderr (stdout with --dry-run)", Destination: &o.json},
	}
}

// validate refuses modes that exclude each other.
func (o *repairOptions) validate() error {
	modes := 0
	for _, set := range []bool{o.Output != "", o.InPlace, o.DryRun} {
		if set {
			modes++
		}
	}
	if modes > 1 {
		return usagef("-o, --in-place and --dry-run exclude each other")
	}
	return nil
}

// checkFiles refuses file counts the modes do not take.
func (o *repairOptions) checkFiles(n int) error {
	switch {
	case n == 0:
		return usagef("repair needs at least one FILE (or - for stdin)")
	case n > 1 && !o.InPlace && !o.DryRun:
		return usagef("repair of several files needs --in-place or --dry-run")
	case n > 1 && o.Quarantine != "":
		return usagef("--quarantine takes one FILE")
	}
	return nil
}

func repairCommand(e *env) *cli.Command {
	opts := &repairOptions{}
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
quarantine file beside the output: OUT.quarantine (FILE.quarantine with
--in-place). Repaired to stdout, a file gets no quarantine: FILE, left as it
was, still holds those bytes (--quarantine names one anyway).

Output goes to stdout, to -o OUT, or with --in-place back to FILE (atomically,
keeping FILE.bak). --dry-run prints the fixes and writes nothing. A file
modified in the last minute may belong to a live Pi session: repair refuses
it unless --force.

Exit status: 0 repaired (or nothing to do), 1 findings remain that repair
does not fix (listed on stderr), 2 usage error or unreadable input.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			if err := opts.checkFiles(c.NArg()); err != nil {
				return err
			}
			opts.Stdout = e.stdout
			return runRepair(c, e, *opts, c.Args().Slice())
		}),
	}
}

func runRepair(c *cli.Context, e *env, opts repairOptions, args []string) error {
	files, err := sessionArgs(c, args)
	if err != nil {
		return err
	}
	if err := checkRepairOutput(&opts, files); err != nil {
		return err
	}
	remaining := 0
	err = runner.Each(c.Context, runner.Named(files), runner.Options{}, func(t runner.Target) error {
		if isDir(t.Path) {
			return fmt.Errorf("%s: is a directory", t.Path)
		}
		res, err := repair.RepairFile(c.Context, t.Path, e.stdin, opts.Options)
		if err != nil {
			return err
		}
		remaining += len(res.Remaining)
		return reportRepair(e, opts, res)
	})
	switch {
	case err != nil:
		return err
	case remaining > 0:
		return &findingsError{"findings remain"}
	}
	return nil
}

// checkRepairOutput checks -o's and --quarantine's locations before
// anything is read (see outputRule), and has the write check -o again on the
// file it replaces.
func checkRepairOutput(opts *repairOptions, files []string) error {
	if err := checkQuarantine(opts.Quarantine); err != nil {
		return err
	}
	out := opts.Output
	rule := outputRule{inputs: files, force: opts.Force, inPlace: "pitool repair --in-place"}
	t, err := openOutput(out, rule)
	if err != nil || t == nil {
		return err
	}
	opts.OutputCheck = func(f *os.File, info os.FileInfo) error { return rule.check(out, f, info) }
	return t.Close()
}

// checkQuarantine refuses a --quarantine in a missing or read-only folder,
// or naming a folder, before any work (a file there is kept: the quarantine
// then gets the next free name).
func checkQuarantine(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	t, err := safefile.OpenTarget(path, safefile.Options{})
	if err != nil {
		return err
	}
	return t.Close()
}

func reportRepair(e *env, opts repairOptions, res *repair.Result) error {
	w := e.stderr
	if opts.DryRun {
		w = e.stdout
	}
	if opts.json {
		return runner.Printer{Out: w, JSON: true}.Print(runner.Result{Row: res})
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
	switch {
	case res.Quarantine != "":
		printLine(w, "%s: %d bytes that could not be saved are in %s", res.File, res.QuarantineBytes, res.Quarantine)
	case res.QuarantineBytes > 0:
		printLine(w, "%s: %d bytes that could not be saved are left out (the file keeps them; --quarantine FILE writes them apart)", res.File, res.QuarantineBytes)
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
