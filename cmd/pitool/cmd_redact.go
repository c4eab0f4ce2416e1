package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/redact"
	"github.com/urfave/cli/v2"
)

type redactOptions struct {
	out         string
	inPlace     bool
	check       bool
	report      string
	rules       []string
	secretsFrom []string
	red         redact.Options
}

func redactCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "redact",
		Usage:     "replace credentials and other secrets in sessions, keeping them valid",
		ArgsUsage: "FILE|DIR...",
		Description: `Finds secrets with gitleaks' default rules plus session rules (Anthropic
and OpenAI keys, Bearer headers, passwords in URLs, KEY=value lines, PEM
private keys, JWTs, high-entropy values introduced in prose) in every JSON
string of every line, decoded first, so escaped secrets are found too. Each
one becomes [REDACTED:<rule>:<8 hex>]; the hex is an HMAC of the value under
a random per-run salt (or --salt), so one value keeps one placeholder.

Ids, parents, types and every line without a finding stay byte-identical.

   pitool redact --check DIR            list findings, exit 1 if any
   pitool redact -o OUT.jsonl FILE      write a redacted copy (- is stdout)
   pitool redact -o OUTDIR DIR          redacted copies under OUTDIR
   pitool redact --in-place FILE...     replace files, keeping FILE.bak

An output's name sets its format: .gz is gzip, .zst zstd, anything else
(stdout too) plain; --in-place keeps each file's own format.

Findings show rule, file, line, JSON path and a masked preview, never the
value. --rules takes a gitleaks-style TOML or JSON file of extra [[rules]]
and [allowlist] entries.

` + helpExitCodes,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` (a file, - for stdout, or a folder for several inputs)"},
			&cli.BoolFlag{Name: "in-place", Usage: "replace each input atomically, keeping FILE.bak"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; list findings and exit 1 if there are any"},
			&cli.StringFlag{Name: "report", Value: "text", Usage: "findings and counts as text or json"},
			&cli.BoolFlag{Name: "json", Usage: "same as --report json"},
			&cli.StringSliceFlag{Name: "rules", Usage: "extra rules and allowlists from `FILE` (TOML or JSON)"},
			&cli.StringSliceFlag{Name: "secret", Usage: "also redact this literal `VALUE`"},
			&cli.StringSliceFlag{Name: "secrets-from", Usage: "also redact the values in `FILE` (NAME=value lines, bare tokens)"},
			&cli.StringFlag{Name: "salt", Usage: "key placeholders with `SALT` (same salt, same placeholders across runs)"},
			&cli.BoolFlag{Name: "pii", Usage: "also redact e-mail addresses, phone numbers and IP addresses"},
			&cli.BoolFlag{Name: "paths", Usage: "also redact the user name in home folder paths (and cwd)"},
			&cli.BoolFlag{Name: "drop-signatures", Usage: "remove opaque thinking/thought/text signatures"},
			&cli.BoolFlag{Name: "drop-images", Usage: "replace image data with a 1x1 placeholder image"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("redact needs at least one FILE or DIR (or - for stdin)")
			}
			return runRedact(c.Context, e, redactFlags(c), c.Args().Slice())
		},
	}
}

func redactFlags(c *cli.Context) redactOptions {
	report := c.String("report")
	if c.Bool("json") {
		report = "json"
	}
	return redactOptions{
		out: c.String("output"), inPlace: c.Bool("in-place"), check: c.Bool("check"),
		report: report, rules: c.StringSlice("rules"), secretsFrom: c.StringSlice("secrets-from"),
		red: redact.Options{
			Salt: c.String("salt"), Secrets: c.StringSlice("secret"), PII: c.Bool("pii"), Paths: c.Bool("paths"),
			DropSignatures: c.Bool("drop-signatures"), DropImages: c.Bool("drop-images"),
		},
	}
}

func runRedact(ctx context.Context, e *env, opts redactOptions, args []string) error {
	if err := opts.validate(args); err != nil {
		return err
	}
	r, err := opts.redactor()
	if err != nil {
		return err
	}
	files, err := sessionfiles.Expand(args)
	if err != nil {
		return err
	}
	rep := newRedactReport(e, opts)
	var bar *progress.Bar
	if len(files) > 1 {
		bar = progress.New(e.stderr, len(files), "redact")
	}
	for _, f := range files {
		st, err := redactOne(ctx, e, r, opts, args, f, rep.add(f.Path))
		if err != nil {
			bar.Finish()
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		rep.done(f.Path, st)
		bar.Add(1)
	}
	bar.Finish()
	return rep.finish()
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
	case o.report == "json" && !o.check && (o.out == "" || o.out == "-"):
		return usagef("--report json needs --check, --in-place or -o FILE: standard output carries the session")
	case o.inPlace && contains(args, "-"):
		return usagef("--in-place cannot replace standard input")
	case (modes == 0 || o.out == "-") && (len(args) > 1 || isDir(args[0])):
		return usagef("several inputs need -o FOLDER, --in-place or --check")
	}
	return nil
}

func (o redactOptions) redactor() (*redact.Redactor, error) {
	for _, path := range o.rules {
		c, err := redact.LoadConfig(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		o.red.Rules = append(o.red.Rules, c)
	}
	for _, path := range o.secretsFrom {
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
func redactOne(ctx context.Context, e *env, r *redact.Redactor, o redactOptions, args []string, f sessionfiles.File, onFinding func(redact.Finding)) (redact.Stats, error) {
	switch {
	case o.check:
		return r.RedactFile(ctx, f.Path, e.stdin, nil, onFinding)
	case o.inPlace:
		return r.ReplaceFile(ctx, f.Path, onFinding)
	}
	out, err := outputPath(o.out, args, f)
	if err != nil {
		return redact.Stats{}, err
	}
	var st redact.Stats
	err = writeOutput(e, out, inputPaths(args), func(w io.Writer) error {
		var err error
		st, err = r.RedactFileTo(ctx, f.Path, e.stdin, w, jsonl.CompressionForName(out), onFinding)
		return err
	})
	return st, err
}

// outputPath is where f goes: out itself for a single named input,
// otherwise out/<path relative to the folder it was found in>.
func outputPath(out string, args []string, f sessionfiles.File) (string, error) {
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
	dest := filepath.Join(out, rel)
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	return dest, nil
}

// inputPaths lists every input file, so that no output overwrites one.
func inputPaths(args []string) []string {
	files, err := sessionfiles.Expand(args)
	if err != nil {
		return args
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	return paths
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
	Files   []redactFileReport `json:"files"`
	Total   int                `json:"findings"`
	ByRule  map[string]int     `json:"byRule"`
	ByEntry map[string]int     `json:"byEntryType"`
}

type redactFileReport struct {
	Path         string           `json:"path"`
	Lines        int              `json:"lines"`
	ChangedLines int              `json:"changedLines"`
	Findings     []redact.Finding `json:"items"`
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
		rep.ByRule[f.Rule]++
		rep.ByEntry[entryTypeName(f.EntryType)]++
		if rep.opts.report == "json" {
			fr.Findings = append(fr.Findings, f)
		} else if rep.opts.check {
			fmt.Fprintf(rep.e.stdout, "%s:%d: %s at %s: %s\n", path, f.Line, f.Rule, orDash(f.JSONPath), f.Preview)
		}
	}
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

func (rep *redactReport) done(path string, st redact.Stats) {
	fr := &rep.Files[len(rep.Files)-1]
	fr.Lines, fr.ChangedLines = st.Lines, st.ChangedLines
	if st.TextLines > 0 {
		fmt.Fprintf(rep.e.stderr, "pitool: warning: %s: %d lines are not JSON and were redacted as plain text\n", path, st.TextLines)
	}
	if st.Truncated {
		fmt.Fprintf(rep.e.stderr, "pitool: warning: %s: the compressed file is truncated; only the lines it yields were read (pitool repair keeps them)\n", path)
	}
}

// finish prints the JSON report or the text summary, and turns findings
// under --check into exit 1.
func (rep *redactReport) finish() error {
	if rep.opts.report == "json" {
		if err := json.NewEncoder(rep.e.stdout).Encode(rep); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else {
		rep.summary(rep.e.stderr)
	}
	if rep.opts.check && rep.Total > 0 {
		return &findingsError{fmt.Sprintf("%d secrets found", rep.Total)}
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
	fmt.Fprintf(w, "pitool: %s %d values in %d files\n", verb, rep.Total, len(rep.Files))
	for _, r := range rules {
		fmt.Fprintf(w, "pitool:   %-32s %d\n", r, rep.ByRule[r])
	}
	if rep.opts.check && rep.Total > 0 {
		fmt.Fprintln(w, "pitool: hint: run 'pitool redact -o OUT FILE' (or --in-place FILE) to replace them")
	}
}
