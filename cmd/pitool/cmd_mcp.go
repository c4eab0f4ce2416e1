package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"

	"github.com/pitool/pitool/mcpserver"
	"github.com/urfave/cli/v2"
)

// mcpOptions are mcp's flags.
type mcpOptions struct{ noRedact bool }

func (o *mcpOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "no-redact", Destination: &o.noRedact, Usage: "serve texts as they are, secrets included (the agent is told)"},
	}
}

func (o *mcpOptions) validate() error { return nil }

func mcpCommand(e *env) *cli.Command {
	opts := &mcpOptions{}
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the sessions to a coding agent: an MCP server on stdin/stdout, read-only",
		ArgsUsage: "[DIR…]",
		Description: `Runs a Model Context Protocol server on the stdio transport, so that an agent
(Pi, Claude Code, Codex, Cursor) can search, list and read the sessions under
DIR (Pi's sessions folder by default) and total their usage. Install it in Pi
with: pi mcp add pitool -- pitool mcp

Tools: search_sessions, list_sessions, read_session, session_usage. Every
answer is bounded, with a cursor or an offset for the next page. A session is
named by its id, a unique prefix of one, its path, or "latest".

Every text an answer holds passes through redact's rules first, as
pitool redact writes it ([REDACTED:<rule>:<hash>]); --no-redact serves the
texts as they are, and the server's instructions tell the agent so. No
session file is ever opened for writing.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			return runMCP(c, e, opts)
		}),
	}
}

func runMCP(c *cli.Context, e *env, o *mcpOptions) error {
	opts := mcpserver.Options{NoRedact: o.noRedact}
	dirs := c.Args().Slice()
	if len(dirs) == 0 {
		dirs = []string{""} // Pi's sessions folder
	}
	for _, d := range dirs {
		dir, err := sessionsFolder(d)
		if err != nil {
			return err
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		opts.Folders = append(opts.Folders, abs)
	}
	opts.Version = buildVersion(debug.ReadBuildInfo())
	srv, err := mcpserver.New(opts)
	if err != nil {
		return err
	}
	if err := srv.Run(c.Context, mcpserver.Stdio(e.stdin, e.stdout)); err != nil && !errors.Is(err, io.EOF) && c.Context.Err() == nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}
