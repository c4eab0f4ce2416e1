package main

import (
	"io"
	"os"
	"strconv"

	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
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
			&cli.StringFlag{Name: "color", Value: "auto", Usage: "`WHEN` to colour: auto (a terminal without $NO_COLOR), always or never", Destination: &o.color},
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
	color, err := useColor(o.color, e.stdout)
	if err != nil {
		return err
	}
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	noteDamage(e, file, ix)
	to := exporter.TerminalOptions{Width: terminalWidth(e.stdout), Color: color, Full: o.full}
	return exporter.ShowTerminal(c.Context, e.stdout, ix, exporter.HTMLOptions{Leaf: o.leaf, AllBranches: o.all}, to)
}

// terminalWidth is $COLUMNS when it is a number, else the width of the
// terminal w is, else 80.
func terminalWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	if f, ok := w.(*os.File); ok && progress.IsTerminal(f) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return n
		}
	}
	return 80
}
