package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/search"
	"github.com/urfave/cli/v2"
)

func searchCommand(e *env) *cli.Command {
	opts := &searchOptions{}
	return &cli.Command{
		Name:      "search",
		Usage:     "find a pattern in what people and the model saw, across sessions",
		ArgsUsage: "PATTERN [PATH…]",
		Description: `Searches the decoded text of every entry: user and assistant text, thinking,
tool-call arguments, tool results, bash commands and output, compaction and
branch summaries, custom messages. A quote, a newline or a \u escape in the
file never hides a match, as it does for grep or rg on the raw JSONL. PATH
(files or folders, searched recursively; .gz and .zst too) defaults to Pi's
sessions folder. Every branch is searched unless --branch active.

Each match prints FILE:LINE:ID ROLE[ KIND][(TOOL)]: and the line of text
around it, the match coloured on a terminal (NO_COLOR or --color never turns
that off). ID works with --leaf and --at of the other commands. -l prints the
files with a match, -c the number of matches of each, --json one object per
match {file, line, id, role, kind, tool, timestamp, before, match, after,
copies}.

The pattern is a literal unless -e makes it a Go (RE2) regexp; -i ignores
case. --role takes user, assistant, toolResult, bashExecution, custom,
branchSummary or compactionSummary (repeat it or join with commas); --tool
NAME keeps the calls of that tool and their results. Exits 1 when nothing
matches, as grep does.

Clones, forks and copies. Pi's /clone and /fork (and pitool clone and fork)
copy a session's history into a new file with the entries' ids and timestamps,
and a plain copy holds the same entries. A match is the same match when the
same entry (id and timestamp) has the same text matched at the same place in
another file. It is shown once, at its first holder (the session whose header
is the earliest, then the first path), with "(also in N copies: FILE, …)"
after it (five named, then how many more), and "copies":[FILE…] in --json; the
copies do not show it. The matches of a fork's own new turns are shown as
usual. -c counts, and -l lists, what is shown: a copy's -c leaves out the
matches it shares with its first holder, and -l leaves out a copy whose every
match is shared. --all-copies shows and counts every match in every file.
Finding the copies reads the files twice (stdin, "-", once: its matches are
all shown).

` + helpReadFailures,
		Flags:  opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error { return runSearch(c, e, opts) }),
	}
}

// searchOptions are search's flags.
type searchOptions struct {
	regexp, ignoreCase, files, count, json, allCopies bool
	roleFlags                                         cli.StringSlice
	tool, cwd, branch, color                          string
	since, until                                      time.Time
	roles                                             map[string]bool // --role, read by validate
}

func (o *searchOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "regexp", Aliases: []string{"e"}, Usage: "PATTERN is a Go (RE2) regexp", Destination: &o.regexp},
		&cli.BoolFlag{Name: "ignore-case", Aliases: []string{"i"}, Usage: "ignore case", Destination: &o.ignoreCase},
		&cli.StringSliceFlag{Name: "role", Usage: "only texts of `ROLE` (" + strings.Join(searchRoles, ", ") + ")", Destination: &o.roleFlags},
		&cli.StringFlag{Name: "tool", Usage: "only the calls of tool `NAME` and their results", Destination: &o.tool},
		&cli.StringFlag{Name: "cwd", Usage: "only sessions whose cwd is `DIR` or lies under it", Destination: &o.cwd},
		choiceFlag("branch", "`WHICH` entries: all, or active (the path to the active leaf)", []string{"all", "active"}, "all", &o.branch),
		&cli.BoolFlag{Name: "files-with-matches", Aliases: []string{"l"}, Usage: "print only the files with a match", Destination: &o.files},
		&cli.BoolFlag{Name: "count", Aliases: []string{"c"}, Usage: "print the number of matches of each file", Destination: &o.count},
		&cli.BoolFlag{Name: "json", Usage: "print one JSON object per match", Destination: &o.json},
		&cli.BoolFlag{Name: "all-copies", Usage: "show a match in every clone, fork and copy of its session, not once", Destination: &o.allCopies},
		choiceFlag("color", "`WHEN` to colour: auto, always, never", []string{"auto", "always", "never"}, "auto", &o.color),
		timeFlag("since", sinceUsage, &o.since),
		timeFlag("until", untilUsage, &o.until),
	}
}

// validate reads --role (repeated, or joined with commas) and --cwd.
func (o *searchOptions) validate() error {
	for _, v := range o.roleFlags.Value() {
		for _, r := range strings.Split(v, ",") {
			if !contains(searchRoles, r) {
				return &flagError{flag: "--role", err: fmt.Errorf("%q is not one of %s", r, strings.Join(searchRoles, ", "))}
			}
			if o.roles == nil {
				o.roles = map[string]bool{}
			}
			o.roles[r] = true
		}
	}
	if o.cwd != "" {
		abs, err := filepath.Abs(o.cwd)
		if err != nil {
			return fmt.Errorf("--cwd %s: %w", o.cwd, err)
		}
		o.cwd = abs
	}
	return nil
}

// searchRoles are the roles --role takes.
var searchRoles = []string{jsonl.RoleUser, jsonl.RoleAssistant, jsonl.RoleToolResult, jsonl.RoleBashExecution,
	jsonl.RoleCustom, jsonl.RoleBranchSummary, jsonl.RoleCompactionSummary}

func runSearch(c *cli.Context, e *env, o *searchOptions) error {
	if c.NArg() == 0 {
		return usagef("search takes a PATTERN")
	}
	tuneGC() // a search reads much and keeps little: no collection in a -c over 100 MB (issue 28)
	m, err := search.Compile(c.Args().First(), o.regexp, o.ignoreCase)
	if err != nil {
		return usagef("%s", err)
	}
	paths := c.Args().Tail()
	if o.branch == "active" && contains(paths, jsonl.StdinName) {
		return usagef("--branch active reads a file twice and stdin (-) once: save it to a file first")
	}
	files, rf, err := sessionPaths(e, paths)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	out := &searchOutput{e: e, rf: rf, w: w, json: o.json, files: o.files, count: o.count, color: useColor(o.color, e.stdout)}
	err = search.Run(c.Context, m, o.query(e.stdin), files, 0, out)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		err = rf.err() // exit 2 before "no match", as grep does
	}
	if err == nil && out.matches == 0 {
		return &findingsError{"no match"}
	}
	return err
}

// query is what the flags ask of search.Run.
func (o *searchOptions) query(stdin io.Reader) search.Options {
	q := search.Options{CountOnly: o.count || o.files, Stdin: stdin, Copies: !o.allCopies,
		Filter: search.Filter{Since: o.since, Until: o.until, Roles: o.roles, Tool: o.tool, Cwd: o.cwd, Active: o.branch == "active"}}
	if o.files {
		q.Limit = 1
	}
	return q
}

// useColor decides whether to colour for --color WHEN: never with NO_COLOR
// set (no-color.org).
func useColor(when string, w io.Writer) bool {
	switch when {
	case "always":
		return true
	case "auto":
		return os.Getenv("NO_COLOR") == "" && progress.IsTerminal(w)
	}
	return false
}

// The colours of a match line, ripgrep's.
const (
	colorFile  = "\x1b[35m"
	colorLine  = "\x1b[32m"
	colorMatch = "\x1b[1;31m"
	colorOff   = "\x1b[0m"
)

// searchOutput prints a search's results.
type searchOutput struct {
	e                  *env
	rf                 *readFailures
	w                  *bufio.Writer
	json, files, count bool
	color              bool
	matches            int
}

// Match prints one match.
func (o *searchOutput) Match(m search.Match) error {
	o.matches++
	if o.json {
		return o.jsonLine(m)
	}
	fmt.Fprintf(o.w, "%s:%s:%s %s: %s%s%s%s\n", o.paint(colorFile, termtext.Visible(m.File)), o.paint(colorLine, fmt.Sprint(m.Line)),
		termtext.Visible(m.ID), termtext.Visible(matchLabel(m)), printable(m.Before), o.paint(colorMatch, printable(m.Text)), printable(m.After), copiesNote(m.Copies))
	return nil
}

// copiesNote names the other files that hold a match: at most
// copiesNamed of them, then how many more.
func copiesNote(copies []string) string {
	if len(copies) == 0 {
		return ""
	}
	named := copies
	if len(named) > copiesNamed {
		named = named[:copiesNamed]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  (also in %s: ", textout.Count(len(copies), "copy"))
	for i, f := range named {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(printable(f))
	}
	if n := len(copies) - len(named); n > 0 {
		fmt.Fprintf(&b, " and %d more", n)
	}
	b.WriteString(")")
	return b.String()
}

// copiesNamed is how many copies a match's line names (--json names all).
const copiesNamed = 5

// FileDone prints the file's line for -l and -c, and warns of a file that
// could not be searched.
func (o *searchOutput) FileDone(r search.FileResult) error {
	if r.Err != nil {
		if err := o.w.Flush(); err != nil { // the matches so far, then the line about the file
			return err
		}
		o.rf.note(r.File, r.Err)
		return nil
	}
	if r.Count == 0 || !(o.files || o.count) {
		return nil
	}
	o.matches += r.Count
	switch {
	case o.json && o.count:
		return o.jsonLine(struct {
			File  string `json:"file"`
			Count int    `json:"count"`
		}{r.File, r.Count})
	case o.json:
		return o.jsonLine(struct {
			File string `json:"file"`
		}{r.File})
	case o.count:
		fmt.Fprintf(o.w, "%s:%d\n", o.paint(colorFile, termtext.Visible(r.File)), r.Count)
	default:
		fmt.Fprintln(o.w, o.paint(colorFile, termtext.Visible(r.File)))
	}
	return nil
}

func (o *searchOutput) jsonLine(v any) error {
	b, err := jsonout.Marshal(v)
	if err != nil {
		return err
	}
	o.w.Write(jsonl.ToValidUTF8(b))
	return o.w.WriteByte('\n')
}

func (o *searchOutput) paint(color, s string) string {
	if !o.color {
		return s
	}
	return color + s + colorOff
}

// matchLabel is ROLE[ KIND][(TOOL)]: the kind when it says more than the role.
func matchLabel(m search.Match) string {
	label := m.Role
	if m.Kind != search.KindText && m.Kind != m.Role {
		label += " " + m.Kind
	}
	if m.Tool != "" {
		label += "(" + m.Tool + ")"
	}
	return label
}

// printable shows control characters as symbols, so that a snippet stays
// on its line and cannot drive the terminal: a newline is ⏎, a tab a space;
// what else termtext.Visible escapes (bidirectional controls that reorder
// the line, bytes that are not UTF-8) it escapes.
func printable(s string) string {
	return termtext.Visible(strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return '⏎'
		case r == '\t':
			return ' '
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return '␡'
		case r >= 0x80 && r < 0xa0:
			return '�'
		}
		return r
	}, s))
}
