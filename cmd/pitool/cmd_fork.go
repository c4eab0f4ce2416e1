package main

import (
	"io"
	"path/filepath"

	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

type forkOptions struct {
	newSessionOptions
	at  string // --at: the user message to fork before
	cwd string // --cwd: the project to fork the whole session into
}

func (o *forkOptions) flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "at", Usage: "user message `ID` to fork before", Destination: &o.at},
		&cli.StringFlag{Name: "cwd", Usage: "project `DIR` to fork the whole session into", Destination: &o.cwd},
	}, o.newSessionOptions.flags()...)
}

func (o *forkOptions) validate() error {
	if (o.at == "") == (o.cwd == "") {
		return usagef("fork needs exactly one of --at ID or --cwd DIR")
	}
	return o.newSessionOptions.validate()
}

func forkCommand(e *env) *cli.Command {
	opts := &forkOptions{}
	return &cli.Command{
		Name:      "fork",
		Usage:     "start a new session from part of another, as Pi's /fork and forkFrom do",
		ArgsUsage: "FILE",
		Description: `With --at ID (Pi's /fork): a new session holding the branch up to just before
the user message ID, so that the conversation can take another turn there.
Labels are recreated as in 'pitool clone'. Forking at the first user message
gives a session with only a header.

With --cwd DIR (Pi's forkFrom): a new session for the project DIR holding
every entry of FILE unchanged, filed under DIR's sessions folder.

The new header has a new UUIDv7 and parentSession = FILE. FILE is never
modified. The path written is printed on stdout.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			if err := opts.open(file); err != nil {
				return err
			}
			defer opts.close()
			return runFork(e, *opts, file)
		}),
	}
}

func runFork(e *env, opts forkOptions, file string) error {
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	if opts.cwd != "" {
		return forkFrom(e, opts, file, ix)
	}
	leaf, err := exporter.ForkPoint(ix, opts.at)
	if err != nil {
		return err
	}
	cwd, err := exporter.SourceCwd(ix)
	if err != nil {
		return err
	}
	return writeNewSession(e, opts.newSessionOptions, file, cwd, func(w io.Writer, h exporter.NewHeader) (exporter.Result, error) {
		return exporter.Fork(w, ix, leaf, h)
	})
}

func forkFrom(e *env, opts forkOptions, file string, ix *jsonl.Index) error {
	if _, err := exporter.SourceCwd(ix); err != nil {
		return err
	}
	cwd, err := filepath.Abs(opts.cwd)
	if err != nil {
		return err
	}
	return writeNewSession(e, opts.newSessionOptions, file, cwd, func(w io.Writer, h exporter.NewHeader) (exporter.Result, error) {
		return exporter.ForkFrom(w, ix, h)
	})
}
