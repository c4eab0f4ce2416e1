package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/redact"
	"github.com/urfave/cli/v2"
)

// redactOptions are redact's flags, bound to its fields (the options
// pattern: flags() binds, validate() checks what the types cannot).
type redactOptions struct {
	out         string
	inPlace     bool
	replace     redact.ReplaceOptions
	check       bool
	report      string
	json        bool // --json: --report json
	rules       cli.StringSlice
	secrets     cli.StringSlice // --secret, into red.Secrets
	secretsFrom cli.StringSlice
	red         redact.Options
}

func (o *redactOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` (a file, - for stdout, or a folder for several inputs)", Destination: &o.out},
		&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "replace each input atomically (no backup unless --backup)", Destination: &o.inPlace},
		&cli.BoolFlag{Name: "backup", Usage: "with --in-place: keep the original, secrets and all, as FILE.bak (mode 0600)", Destination: &o.replace.Backup},
		&cli.BoolFlag{Name: "force", Usage: "with --in-place: the file may belong to a live Pi session; with -o: replace another Pi session (never an input); write anyway", Destination: &o.replace.Force},
		&cli.BoolFlag{Name: "check", Usage: "write nothing; list findings and exit 1 if there are any", Destination: &o.check},
		&cli.StringFlag{Name: "report", Value: "text", Usage: "findings and counts as text or json", Destination: &o.report},
		&cli.BoolFlag{Name: "json", Usage: "same as --report json", Destination: &o.json},
		&cli.StringSliceFlag{Name: "rules", Usage: "extra rules and allowlists from `FILE` (TOML or JSON)", Destination: &o.rules},
		&cli.StringSliceFlag{Name: "secret", Usage: "also redact this literal `VALUE`", Destination: &o.secrets},
		&cli.StringSliceFlag{Name: "secrets-from", Usage: "also redact the values in `FILE` (NAME=value lines, bare tokens)", Destination: &o.secretsFrom},
		&cli.StringFlag{Name: "salt", Usage: "key placeholders with `SALT` (same salt, same placeholders across runs)", Destination: &o.red.Salt},
		&cli.BoolFlag{Name: "pii", Usage: "also redact e-mail addresses, phone numbers and IP addresses", Destination: &o.red.PII},
		&cli.BoolFlag{Name: "paths", Usage: "also redact the user name in home folder paths (and cwd), in content and in file and folder names", Destination: &o.red.Paths},
		&cli.BoolFlag{Name: "drop-signatures", Usage: "remove opaque thinking/thought/text signatures", Destination: &o.red.DropSignatures},
		&cli.BoolFlag{Name: "drop-images", Usage: "replace image data with a 1x1 placeholder image", Destination: &o.red.DropImages},
	}
}

// redactHelp is the long help of pitool redact.
const redactHelp = `Finds secrets with gitleaks' default rules plus session rules (Anthropic
and OpenAI keys, Bearer headers, passwords in URLs, KEY=value lines, PEM
private keys, JWTs, high-entropy values introduced in prose) in every JSON
string of every line, keys included, decoded first, so escaped secrets are
found too. Each one becomes [REDACTED:<rule>:<8 hex>]; the hex is an HMAC of
the value under a random per-run salt (or --salt), so one value keeps one
placeholder.

Nothing is exempt: model, provider, customType, mimeType, types and ids are
scanned too. An id holding a secret gets the same placeholder in every
parentId, targetId or other reference, so the tree holds. A key holding a
secret is replaced too (with a #2 suffix if it would equal another key).
Every line without a finding stays byte-identical.

   pitool redact --check DIR            list findings, exit 1 if any
   pitool redact -o OUT.jsonl FILE      write a redacted copy (- is stdout)
   pitool redact -o OUTDIR DIR          redacted copies under OUTDIR
   pitool redact --in-place FILE...     replace files (no plaintext copy is kept;
                                        --backup keeps FILE.bak, mode 0600)

--check DIR reads every file that may hold session lines, not only
sessions: any file whose name contains .jsonl or .quarantine (backups such
as FILE.bak and FILE.bak.N, quarantines, leftover temporary files), and any
other regular file whose first line is a JSON object with a "type" member.
A file it cannot read is reported and the check goes on (exit 2 at the end).
--in-place DIR names such files it leaves behind with secrets in them.

An output's name sets its format: .gz is gzip, .zst zstd, anything else
(stdout too) plain; --in-place keeps each file's own format.

--in-place refuses a file modified in the last minute (it may belong to a
live Pi session) unless --force; lines Pi appends while a file is rewritten
are redacted and kept.

Findings show rule, file, line, JSON path and a masked preview, never the
value: a key on the path that held a secret is shown redacted. So is every
path redact prints (findings, --json "path", warnings and errors): a secret
in a file or folder name, and with --paths the user of a home folder
(/home/alice, and Pi's --home-alice-proj-- folders), gets the placeholder it
gets in content. Copies under -o OUTDIR take the redacted names, still
session names; two that would share a name are kept apart with -2, -3…
(--in-place keeps the name and says so). --rules takes a gitleaks-style
TOML or JSON file of extra [[rules]] and [allowlist] entries.

` + helpExitCodes

func redactCommand(e *env) *cli.Command {
	opts := &redactOptions{}
	return &cli.Command{
		Name:        "redact",
		Usage:       "replace credentials and other secrets in sessions, keeping them valid",
		ArgsUsage:   "FILE|DIR...",
		Description: redactHelp,
		Flags:       opts.flags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("redact needs at least one FILE or DIR (or - for stdin)")
			}
			if opts.json {
				opts.report = "json"
			}
			opts.red.Secrets = opts.secrets.Value()
			return runRedact(c.Context, e, *opts, c.Args().Slice())
		},
	}
}

func runRedact(ctx context.Context, e *env, opts redactOptions, args []string) (err error) {
	if err := opts.validate(args); err != nil {
		return err
	}
	if err := opts.checkOutput(args); err != nil {
		return err
	}
	r, err := opts.redactor()
	if err != nil {
		return err
	}
	mask := newPathMask(r, args...)
	defer func() { err = mask.err(err) }()
	e = mask.env(e)
	files, err := redactInputs(opts, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return noFilesError(args)
	}
	mask.add(runner.Paths(files)...)
	rep := newRedactReport(e, opts)
	err = runner.Each(ctx, files, runner.Options{Progress: e.stderr, Label: "redact"}, func(t runner.Target) error {
		return redactTarget(ctx, e, r, mask, opts, args, t.File, rep)
	})
	if err != nil {
		return err
	}
	if opts.inPlace {
		warnUnredacted(ctx, e, r, mask, args, files)
	}
	return rep.finish()
}

// redactTarget redacts one file into the report: a file reached through a
// link out of the folder named (in place) or one that is not a session
// found in a folder is listed as skipped; one the user named is an error.
func redactTarget(ctx context.Context, e *env, r *redact.Redactor, mask *pathMask, opts redactOptions, args []string, f sessionfiles.File, rep *redactReport) error {
	if opts.inPlace && f.Outside {
		rep.skip(mask.name(f.Path), outsideReason(mask.name(rootOf(args, f.Path))))
		return nil
	}
	name := mask.name(f.Path) // a file or folder named after a secret is shown redacted
	if ns := f.NotRegular(); ns != nil && !opts.check {
		rep.add(name)
		rep.skipNotSession(name, ns)
		return nil
	}
	st, err := redactOne(ctx, e, r, mask, opts, args, f, rep.add(name))
	if ns, ok := jsonl.IsNotSession(err); ok && !opts.check {
		if f.Named {
			return maskedError(f.Path, name, ns)
		}
		rep.skipNotSession(name, ns)
		return nil
	}
	if err != nil && (!opts.check || ctx.Err() != nil) {
		return maskedError(f.Path, name, err)
	}
	rep.done(f.Path, name, st, err)
	return nil
}

// maskedError prefixes err with the file's name, shown as name.
func maskedError(path, name string, err error) error {
	err = withPath(path, err)
	if name == path {
		return err
	}
	return errors.New(strings.ReplaceAll(describe(err), path, name))
}

// redactInputs lists the files to read: for --check, every file that may
// hold session lines (backups and quarantines included, see
// redact.CheckFiles); otherwise the session files.
func redactInputs(opts redactOptions, args []string) ([]runner.Target, error) {
	if !opts.check {
		return runner.Expand(args, runner.ExpandOptions{})
	}
	paths, err := redact.CheckFiles(args)
	if err != nil {
		return nil, err
	}
	return runner.Listed(paths, args), nil
}

// warnUnredacted names the files under the folders in args that may hold
// session lines (backups, quarantines), were not redacted in place, and
// still hold secrets.
func warnUnredacted(ctx context.Context, e *env, r *redact.Redactor, mask *pathMask, args []string, done []runner.Target) {
	all, err := redact.CheckFiles(args)
	if err != nil {
		return
	}
	redacted := runner.Paths(done)
	slices.Sort(redacted)
	all = slices.DeleteFunc(all, func(p string) bool {
		_, found := slices.BinarySearch(redacted, p)
		return found
	})
	left := 0
	_ = runner.Each(ctx, all, runner.Options{}, func(p string) error {
		switch st, err := r.RedactFile(ctx, p, nil, nil, nil); {
		case err != nil:
			e.warningf("%s may hold session lines and could not be checked", mask.name(p))
			left++
		case st.Findings > 0:
			e.warningf("%s holds %s and was not redacted", mask.name(p), textout.Count(st.Findings, "secret"))
			left++
		}
		return nil
	}) // Ctrl-C ends the warnings; the run's own result stands
	if left > 0 {
		e.hintf("remove or redact them before sharing; 'pitool redact --check %s' lists them", mask.replace(strings.Join(args, " ")))
	}
}

func (o redactOptions) validate(args []string) error {
	modes := 0
	for _, on := range []bool{o.check, o.inPlace, o.out != ""} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return usagef("--check, --in-place and -o exclude each other")
	case o.report != "text" && o.report != "json":
		return usagef("--report must be text or json, not %q", o.report)
	case o.report == "json" && !o.check && !o.inPlace && (o.out == "" || o.out == "-"):
		return usagef("--report json needs --check, --in-place or -o FILE: standard output carries the session")
	case o.replace.Backup && !o.inPlace:
		return usagef("--backup goes with --in-place")
	case o.replace.Force && !o.inPlace && (o.out == "" || o.out == "-"):
		return usagef("--force goes with --in-place or -o")
	case o.inPlace && contains(args, "-"):
		return usagef("--in-place cannot replace standard input")
	case (modes == 0 || o.out == "-") && (len(args) > 1 || isDir(args[0])):
		return usagef("several inputs need -o FOLDER, --in-place or --check")
	}
	return nil
}

// outputRule is what -o may replace: never an input (--in-place replaces
// one), another Pi session only with --force (see outputRule).
func (o redactOptions) outputRule(args []string) outputRule {
	return outputRule{inputs: inputPaths(args), force: o.replace.Force, inPlace: "pitool redact --in-place"}
}

// checkOutput checks -o's location before anything is read: the file (see
// openOutput), or the folder the copies go into; each copy is checked again
// as it is written.
func (o redactOptions) checkOutput(args []string) error {
	switch {
	case o.out == "":
		return nil
	case isDir(o.out):
		return safefile.CheckFolder(o.out)
	}
	t, err := openOutput(o.out, o.outputRule(args))
	if err != nil || t == nil {
		return err
	}
	return t.Close()
}

func (o redactOptions) redactor() (*redact.Redactor, error) {
	for _, path := range o.rules.Value() {
		c, err := redact.LoadConfig(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		o.red.Rules = append(o.red.Rules, c)
	}
	for _, path := range o.secretsFrom.Value() {
		values, err := redact.ReadSecretsFile(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		o.red.Secrets = append(o.red.Secrets, values...)
	}
	r, err := redact.New(o.red)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return r, nil
}

// redactOne checks, rewrites or copies one file according to the mode.
func redactOne(ctx context.Context, e *env, r *redact.Redactor, mask *pathMask, o redactOptions, args []string, f sessionfiles.File, onFinding func(redact.Finding)) (redact.Stats, error) {
	switch {
	case o.check:
		return r.RedactFile(ctx, f.Path, e.stdin, nil, onFinding)
	case o.inPlace:
		st, backup, err := r.ReplaceFile(ctx, f.Path, o.replace, onFinding)
		if backup != "" {
			e.warningf("%s: the original, with its secrets, is kept as %s", mask.name(f.Path), mask.name(backup))
		}
		return st, err
	}
	if f.Path != "-" {
		if err := jsonl.CheckSessionFile(f.Path); err != nil {
			return redact.Stats{}, err
		}
	}
	out, err := outputPath(o.out, args, f, mask)
	if err != nil {
		return redact.Stats{}, err
	}
	var st redact.Stats
	err = writeByRule(e, out, o.outputRule(args), func(w io.Writer) error {
		var err error
		st, err = r.RedactFileTo(ctx, f.Path, e.stdin, w, jsonl.CompressionForName(out), onFinding)
		return err
	})
	return st, err
}

// outputPath is where f goes: out itself for a single named input,
// otherwise out/<path relative to the folder it was found in>, redacted by
// name (a copy is not named after a secret, in its file or folder names) and
// made unique in the run (pathMask.output).
func outputPath(out string, args []string, f sessionfiles.File, mask *pathMask) (string, error) {
	if len(args) == 1 && f.Named && !isDir(out) {
		return out, nil
	}
	rel := filepath.Base(f.Path)
	for _, root := range args {
		if r, err := filepath.Rel(root, f.Path); err == nil && !f.Named && isDir(root) && filepath.IsLocal(r) {
			rel = r
			break
		}
	}
	dest := mask.output(out, rel)
	if err := safefile.MkdirAll(filepath.Dir(dest)); err != nil {
		return "", err
	}
	return dest, nil
}

// inputPaths lists every input file, so that no output overwrites one.
func inputPaths(args []string) []string {
	files, err := runner.Expand(args, runner.ExpandOptions{})
	if err != nil {
		return args
	}
	return runner.Paths(files)
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// redactReport prints findings as they come (text) or collects them for
// one JSON document, plus counts per rule and per entry type.
type redactReport struct {
	e       *env
	opts    redactOptions
	strays  int                // findings in files whose name is not a session's
	Files   []redactFileReport `json:"files"`
	Total   int                `json:"findings"`
	Failed  int                `json:"failed"`
	ByRule  map[string]int     `json:"byRule"`
	ByEntry map[string]int     `json:"byEntryType"`
}

type redactFileReport struct {
	Path         string           `json:"path"`
	Skipped      string           `json:"skipped,omitempty"` // why the file was left alone
	Lines        int              `json:"lines"`
	ChangedLines int              `json:"changedLines"`
	Findings     []redact.Finding `json:"items"`
	Error        string           `json:"error,omitempty"`
}

func newRedactReport(e *env, opts redactOptions) *redactReport {
	return &redactReport{e: e, opts: opts, ByRule: map[string]int{}, ByEntry: map[string]int{}}
}

// add starts the report of one file and returns its finding callback.
func (rep *redactReport) add(path string) func(redact.Finding) {
	rep.Files = append(rep.Files, redactFileReport{Path: path, Findings: []redact.Finding{}})
	fr := &rep.Files[len(rep.Files)-1]
	return func(f redact.Finding) {
		rep.Total++
		if !sessionfiles.IsSessionName(filepath.Base(path)) {
			rep.strays++
		}
		rep.ByRule[f.Rule]++
		rep.ByEntry[entryTypeName(f.EntryType)]++
		if rep.opts.report == "json" {
			fr.Findings = append(fr.Findings, f)
		} else if rep.opts.check {
			printLine(rep.e.stdout, "%s:%d: %s at %s: %s", path, f.Line, f.Rule, orDash(f.JSONPath), f.Preview)
		}
	}
}

// skip records a file left alone, and says why on stderr.
func (rep *redactReport) skip(path, why string) {
	rep.Files = append(rep.Files, redactFileReport{Path: path, Skipped: why, Findings: []redact.Finding{}})
	rep.e.warningf("%s: skipped: %s", path, why)
}

// rootOf is the folder among args that path was found under.
func rootOf(args []string, path string) string {
	for _, root := range args {
		if r, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(r) {
			return root
		}
	}
	return filepath.Dir(path)
}

func entryTypeName(t string) string {
	if t == "" {
		return "(none)"
	}
	return t
}

func orDash(s string) string {
	if s == "" {
		return "(not JSON)"
	}
	return s
}

// done records one file's counts, or the error that stopped it (--check
// goes on with the next file and fails at the end).
func (rep *redactReport) done(path, name string, st redact.Stats, err error) {
	fr := &rep.Files[len(rep.Files)-1]
	fr.Lines, fr.ChangedLines = st.Lines, st.ChangedLines
	if err != nil {
		rep.Failed++
		fr.Error = strings.ReplaceAll(fileError(path, err), path, name)
		rep.e.errorf("%s", fr.Error)
	}
	if st.TextLines > 0 {
		rep.e.warningf("%s: %s not JSON and %s redacted as plain text", name, textout.Count(st.TextLines, "line")+textout.Choose(st.TextLines, " is", " are"), textout.Choose(st.TextLines, "was", "were"))
	}
	if name != path && rep.opts.inPlace {
		rep.e.warningf("%s: the file name holds a secret and was kept; rename the file before sharing", name)
	}
	if st.Truncated {
		rep.e.warningf("%s: the compressed file is truncated; only the lines it yields were read (pitool repair keeps them)", name)
	}
}

// finish prints the JSON report or the text summary, and turns findings
// under --check into exit 1.
func (rep *redactReport) finish() error {
	if rep.opts.report == "json" {
		if err := jsonout.Write(rep.e.stdout, rep); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else {
		rep.summary(rep.e.stderr)
	}
	if rep.Failed > 0 {
		return fmt.Errorf("%d of %d files could not be read to the end", rep.Failed, len(rep.Files))
	}
	if rep.opts.check && rep.Total > 0 {
		return &findingsError{textout.Count(rep.Total, "secret") + " found"}
	}
	return nil
}

func (rep *redactReport) summary(w io.Writer) {
	rules := make([]string, 0, len(rep.ByRule))
	for r := range rep.ByRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	verb := "redacted"
	if rep.opts.check {
		verb = "found"
	}
	skipped := 0
	for _, f := range rep.Files {
		if f.Skipped != "" {
			skipped++
		}
	}
	line := fmt.Sprintf("%s %s in %s", verb, textout.Count(rep.Total, "value"), textout.Count(len(rep.Files)-skipped, "file"))
	if skipped > 0 {
		line += fmt.Sprintf(" (%d skipped)", skipped)
	}
	rep.e.infof("%s", line)
	for _, r := range rules {
		fmt.Fprintf(w, "pitool:   %-32s %d\n", r, rep.ByRule[r])
	}
	if rep.opts.check && rep.Total > 0 {
		rep.e.hintf("run 'pitool redact -o OUT FILE' (or --in-place FILE) to replace them")
	}
	if rep.opts.check && rep.strays > 0 {
		rep.e.hintf("%d %s in backups, quarantines or other files that are not sessions: remove them before sharing", rep.strays, textout.Choose(rep.strays, "is", "are"))
	}
}
