package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// infoOptions are info's flags.
type infoOptions struct{ json bool }

func (o *infoOptions) flags() []cli.Flag {
	return []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object per file", Destination: &o.json}}
}

func (o *infoOptions) validate() error { return nil }

func infoCommand(e *env) *cli.Command {
	opts := &infoOptions{}
	return &cli.Command{
		Name:      "info",
		Usage:     "summarise sessions: id, name, cwd, dates, messages, leaves, tokens, cost, models",
		ArgsUsage: "FILE|DIR…",
		Description: `For each session prints what Pi's /resume list knows (id, name, cwd, created,
modified, message count, first message, parent session) and what pitool adds:
file size, entries, leaves, the context tokens at the active leaf, token and
cost totals as Pi's /session counts them (see pitool stats), and the models used.

A DIR is searched recursively for session files, as ls searches it: one block
per session, in path order, read in parallel. A file in it that is not a Pi
session is skipped with a warning on stderr (and a row {"file", "skipped"} in
--json); one that cannot be read is an error.

A session Pi's listing drops (a line on which it fails, such as a user
message whose content is null) has no /resume row: it is skipped with a
warning in a DIR, as ls skips it, and an error when named.

--json prints one JSON object per file, one per line.

` + helpReadFailures,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("info takes at least one FILE or DIR")
			}
			rf := newReadFailures(e, c.Args().Slice()...)
			err := runner.Each(c.Context, c.Args().Slice(), runner.Options{}, func(path string) error {
				return printInfoPath(c, e, rf, path, opts.json)
			})
			if err != nil {
				return err
			}
			return rf.err()
		}),
	}
}

// printInfoPath prints the info of a file, or of every session in a folder.
func printInfoPath(c *cli.Context, e *env, rf *readFailures, path string, asJSON bool) error {
	path, err := sessionArg(c, path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		info, err := sessionInfo(e, path)
		if err != nil {
			if c.Context.Err() != nil {
				return err
			}
			rf.note(path, err)
			return nil
		}
		return printInfo(e, info, asJSON)
	}
	files, err := runner.Expand([]string{path}, runner.ExpandOptions{EveryPath: true})
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return noFilesError([]string{path})
	}
	type result struct {
		info *jsonl.Info
		err  error
	}
	quiet := *e // per-file damage notes would drown the blocks; unreadable files get one line below
	quiet.stderr = io.Discard
	return runner.Run(c.Context, files, runner.Options{Jobs: parallel.Workers(0)}, func(_ context.Context, f runner.Target) (r result) {
		if ns := f.Special(); ns != nil {
			return result{err: ns}
		}
		r.info, r.err = sessionInfo(&quiet, f.Path)
		return r
	}, func(f runner.Target, r result) error {
		if err := c.Context.Err(); err != nil {
			return err // a file cut short by Ctrl-C is no damage to report
		}
		if r.err == nil {
			return printInfo(e, r.info, asJSON)
		}
		if ns := rf.note(f.Path, r.err); ns != nil {
			return runner.Printer{Out: e.stdout, JSON: asJSON}.Print(runner.Result{Row: runner.Skipped(ns).Row})
		}
		return nil
	})
}

// sessionInfo indexes one file and summarises it.
func sessionInfo(e *env, file string) (*jsonl.Info, error) {
	var info *jsonl.Info
	err := withLeaf(e, file, "", func(ix *jsonl.Index, _ int) (err error) {
		var mod time.Time
		if st, statErr := os.Stat(file); statErr == nil {
			mod = st.ModTime()
		}
		info, err = ix.Info(file, mod)
		return err
	})
	return info, err
}

func printInfo(e *env, info *jsonl.Info, asJSON bool) error {
	return runner.Printer{Out: e.stdout, JSON: asJSON}.Print(runner.Result{
		Row:  info,
		Text: func(w io.Writer) error { return writeInfoText(w, info) },
	})
}

func writeInfoText(w io.Writer, in *jsonl.Info) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	created := "(unknown)"
	if in.Created != nil {
		created = *in.Created
	}
	rows := [][2]string{
		{"file", fmt.Sprintf("%s (%s, %s, %s)", in.Path, humanBytes(in.FileSize), textout.Count(in.Entries, "entry"), textout.Count(in.Leaves, "leaf"))},
		{"id", in.ID}, {"name", dashIfEmpty(in.Name)}, {"cwd", in.Cwd}, {"created", created}, {"modified", in.Modified},
		{"parent", dashIfEmpty(in.ParentSessionPath)},
		{"messages", fmt.Sprintf("%s, first: %s", textout.Int(int64(in.MessageCount)), textout.Clip(strings.Join(strings.Fields(in.FirstMessage), " "), 70))},
		{"context", textout.Count(in.ContextTokens, "token") + " at the active leaf"},
		{"usage", fmt.Sprintf("%s in, %s out, %s cache read, %s cache write; $%.4f", textout.Float(in.Tokens.Input), textout.Float(in.Tokens.Output),
			textout.Float(in.Tokens.CacheRead), textout.Float(in.Tokens.CacheWrite), in.Cost)},
		{"models", dashIfEmpty(strings.Join(in.Models, ", "))},
	}
	if !in.HasHeader {
		rows = append(rows, [2]string{"warning", "no session header: Pi will not open this file (pitool repair recreates it)"})
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], termtext.Visible(r[1]))
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
