package main

import (
	"io"

	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// showOptions are show's flags.
type showOptions struct {
	leaf  string
	cwd   string
	all   bool
	full  bool
	color string
}

func showCommand(e *env) *cli.Command {
	var o showOptions
	return &cli.Command{
		Name:      "show",
		Usage:     "print the conversation at a leaf, as a person reads it in a terminal",
		ArgsUsage: "FILE|ID|latest",
		Description: `Prints the branch Pi resumes (or --leaf's): who said what, markdown rendered,
each tool call on one line with its result folded to its first line (--full
unfolds results and thinking), compactions and branch summaries marked as such.
--all prints every branch in tree order, each marked where it starts.

The session is a path, - for stdin, a session id or a unique prefix of one, or
latest (the most recent session; of the project --cwd names, when given), looked
up in Pi's sessions folder. Lines fit the terminal ($COLUMNS, else its width,
else 80 columns); colour only on a terminal and without $NO_COLOR, unless
--color says otherwise. Nothing in a
session can control the terminal: control characters are shown as \x1b and the
like.

` + helpReadOneFile,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "leaf", Usage: "entry `ID` whose branch to show", Destination: &o.leaf},
			&cli.StringFlag{Name: "cwd", Usage: "the project in `DIR`: latest is its most recent session, an id prefix prefers its sessions", Destination: &o.cwd},
			&cli.BoolFlag{Name: "all", Usage: "every branch, in tree order", Destination: &o.all},
			&cli.BoolFlag{Name: "full", Usage: "unfold tool outputs and thinking", Destination: &o.full},
			choiceFlag("color", "`WHEN` to colour: auto (a terminal without $NO_COLOR), always or never", []string{"auto", "always", "never"}, "auto", &o.color),
		},
		Action: func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return runShow(c, e, o, file)
		},
	}
}

func runShow(c *cli.Context, e *env, o showOptions, file string) error {
	color := useColor(o.color, e.stdout)
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	noteDamage(e, file, ix)
	to := exporter.TerminalOptions{Width: showWidth(e.stdout), Color: color, Full: o.full}
	return exporter.ShowTerminal(c.Context, e.stdout, ix, exporter.HTMLOptions{Leaf: o.leaf, AllBranches: o.all}, to)
}

// showWidth is the width show wraps to: the terminal's (textout.Width), or
// 80 columns when the output is not a terminal.
func showWidth(w io.Writer) int {
	if n := textout.Width(w); n > 0 {
		return n
	}
	return 80
}
