package main

import (
	"fmt"
	"io"

	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/redact"
	"github.com/urfave/cli/v2"
)

// exportOptions are the flags of export html and export md.
type exportOptions struct {
	out          string
	leaf         string
	allBranches  bool
	noThinking   bool
	noToolOutput bool
	title        string
	redact       bool
	force        bool // -o may replace another Pi session (never the input)
}

func exportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "render a session as a self-contained HTML page or as Markdown",
		Subcommands: []*cli.Command{
			exportHTMLCommand(e),
			exportMarkdownCommand(e),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 { // after --, which checkArgs does not read past
				return unknownSubcommand(c.Command, c.Args().First())
			}
			return usagef("export needs a format: 'pitool export html FILE' or 'pitool export md FILE'")
		},
	}
}

// flags are the flags both formats take (html adds --all-branches).
func (o *exportOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` (default or -: stdout)", Destination: &o.out},
		&cli.StringFlag{Name: "leaf", Usage: "show the branch that ends at entry `ID` (default: the active leaf)", Destination: &o.leaf},
		&cli.BoolFlag{Name: "no-thinking", Usage: "leave the model's thinking out", Destination: &o.noThinking},
		&cli.BoolFlag{Name: "no-tool-output", Usage: "leave tool results and written file contents out", Destination: &o.noToolOutput},
		&cli.StringFlag{Name: "title", Usage: "page `TITLE` (default: the session name, or its id)", Destination: &o.title},
		&cli.BoolFlag{Name: "redact", Usage: "replace secrets with placeholders first, with the same rules as 'pitool redact'", Destination: &o.redact},
		&cli.BoolFlag{Name: "force", Usage: "let -o replace a Pi session (never FILE itself)", Destination: &o.force},
	}
}

func (o *exportOptions) validate() error { return nil }

func exportHTMLCommand(e *env) *cli.Command {
	opts := &exportOptions{}
	return &cli.Command{
		Name:      "html",
		Usage:     "write one self-contained HTML page of a session",
		ArgsUsage: "FILE",
		Description: `Writes a single HTML file with its CSS and script inline that makes no
network request. The conversation is rendered on the server side, so the page
reads fine with JavaScript off; the script adds the sidebar tree (filters:
default, no-tools, user, labeled, all), search, toggles for thinking (T), tool
outputs (O) and hidden messages (H), deep links (#entry-<id>) and copy buttons.

Markdown is rendered (goldmark) and sanitized (bluemonday); everything else
from the session is escaped, and a Content-Security-Policy lets only the
page's own script run. Code is highlighted with chroma up to 32 KB per page
(chroma lexes well under 1 MB/s), the rest is shown plain. Long outputs are
collapsed and parsed by the browser only when opened. The page is written
while the session is read, so big sessions export in bounded memory.

By default the active branch is shown; --leaf picks another one and
--all-branches shows the whole tree.

` + helpReadOneFile,
		Flags: append(opts.flags(),
			&cli.BoolFlag{Name: "all-branches", Usage: "show every branch of the tree (the sidebar switches between them)", Destination: &opts.allBranches},
		),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return runExport(e, c, opts, file, htmlWriter)
		}),
	}
}

func exportMarkdownCommand(e *env) *cli.Command {
	opts := &exportOptions{}
	return &cli.Command{
		Name:      "md",
		Usage:     "write readable Markdown of one branch of a session",
		ArgsUsage: "FILE",
		Description: `Writes the branch (the active one, or --leaf's) as Markdown for pasting into
issues and docs: user and assistant turns, tool calls with their results in
fenced blocks, summaries, and errors and aborted turns marked.

` + helpReadOneFile,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return runExport(e, c, opts, file, markdownWriter)
		}),
	}
}

type exportWriter func(c *cli.Context, w io.Writer, ix *jsonl.Index, opts exporter.HTMLOptions) error

func htmlWriter(c *cli.Context, w io.Writer, ix *jsonl.Index, opts exporter.HTMLOptions) error {
	return toTerminal(w, func(w io.Writer) error { return exporter.ExportHTML(c.Context, w, ix, opts) })
}

func markdownWriter(c *cli.Context, w io.Writer, ix *jsonl.Index, opts exporter.HTMLOptions) error {
	return toTerminal(w, func(w io.Writer) error { return exporter.ExportMarkdown(c.Context, w, ix, opts) })
}

// toTerminal calls write with w, or, when w is a terminal, with a
// termtext.Writer over it, so that a control character from the session
// is shown on the terminal, never obeyed; a file or a pipe gets the
// export's bytes exactly.
func toTerminal(w io.Writer, write func(io.Writer) error) error {
	if !progress.IsTerminal(w) {
		return write(w)
	}
	tw := termtext.NewWriter(w)
	if err := write(tw); err != nil {
		return err
	}
	return tw.Close()
}

func runExport(e *env, c *cli.Context, opts *exportOptions, file string, write exportWriter) error {
	tuneGC() // an export decodes every entry shown and keeps little of it
	out, err := openOutput(opts.out, outputRule{inputs: []string{file}, force: opts.force})
	if err != nil {
		return err
	}
	if out != nil {
		defer out.Close()
	}
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	xo := exporter.HTMLOptions{Leaf: opts.leaf, AllBranches: opts.allBranches, NoThinking: opts.noThinking,
		NoToolOutput: opts.noToolOutput, Title: opts.title}
	if _, err := ix.ResolveLeaf(opts.leaf); err != nil {
		return err
	}
	if opts.redact {
		if xo.Redact, err = redactLine(); err != nil {
			return err
		}
	}
	return writeTo(e, out, func(w io.Writer) error {
		return write(c, w, ix, xo)
	})
}

// redactLine returns the redact package's line rewriter with its default
// rules, the same as 'pitool redact' uses.
func redactLine() (func([]byte) ([]byte, error), error) {
	r, err := redact.New(redact.Options{})
	if err != nil {
		return nil, fmt.Errorf("redact rules: %w", err)
	}
	return func(line []byte) ([]byte, error) {
		out, _, err := r.RedactLine(line)
		return out, err
	}, nil
}
