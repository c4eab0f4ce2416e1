package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func lsCommand(e *env) *cli.Command {
	opts := &lsOptions{}
	return &cli.Command{
		Name:      "ls",
		Usage:     "list sessions as Pi's /resume does, newest first",
		ArgsUsage: "[DIR] [--all] [--cwd DIR] [--since WHEN] [--limit N] [--tokens] [--flat]",
		Description: `Lists the sessions under DIR (searched recursively, so Pi's per-project folders
are included) as Pi's /resume shows them: name or first message, message count,
and the age of the last activity in Pi's words (now, 5m, 3h, 2d, 1w, 4mo, 1y),
then the path. Clones and forks are threaded under the session they came from
(the header's parentSession), as in Pi's default view; threads are ordered by
their newest activity. --flat lists every session newest first instead.

On a terminal the table fits its width ($COLUMNS, else the terminal's): paths
are shown relative to DIR (or with ~ for the home folder) and cut to their
distinguishing end, titles are clipped; piped output keeps whole paths.

DIR defaults to Pi's sessions folder: $PI_CODING_AGENT_DIR/sessions,
or ~/.pi/agent/sessions. Symlinked folders and files are followed, as Pi does,
and a file linked under several names is listed under each, as Pi lists it.
Files that are not Pi sessions are listed last as skipped, with the reason (and
a warning on stderr); files Pi cannot open (no header) are
skipped with a warning on stderr, and a file that cannot be read is an error.

Each row is read as Pi's /resume reads it (header, names, message count, last
timestamp), in one pass over the file and without indexing it; files are read
in parallel. --tokens indexes each session too and adds columns of what pitool
info shows beyond Pi's row: leaves, context tokens, all tokens billed, cost,
models (on a narrow terminal the path and models columns give way). It costs a
full read of every file: each assistant message is decoded for its usage and
the active branch for its context estimate.

--cwd DIR lists only the sessions whose header names DIR as their working
folder, as Pi's /resume does in a project (the rest of such a file is not
read). --since WHEN lists only sessions active since WHEN: a date
(2026-01-02), a time (2026-01-02T15:04:05Z) or an age (90m, 36h, 7d).
--limit N prints only the N newest.

Compressed sessions (.jsonl.gz, .jsonl.zst: what nightly --archive-after
writes, or a .jsonl holding compressed bytes) are archived: Pi's /resume does
not list them, so neither does ls, which says how many it left out. --all
lists them too, marked "archived:"; pitool unarchive brings one back.

A DIR or $PI_CODING_AGENT_DIR that does not exist is an error (exit 2); a
sessions folder Pi has not made yet lists nothing, with a warning, as Pi's
/resume shows nothing.

--json prints the rows as a JSON array (the fields of Pi's row, the file's
size and entry count, the fields of pitool info --json with --tokens, and
"archived": true on an archived one); a skipped file is a row {"file", "skipped"}.

Exit status: 0 when the folder was listed (skipped files do not change it);
2 when DIR is not a folder or does not exist, or a file in it cannot be read
(permission, I/O error, a corrupt .gz: the list is printed first).`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("ls takes at most one DIR")
			}
			dir, exists, err := lsFolder(c.Args().First())
			if err != nil {
				return err
			}
			infos := []lsRow{}
			var skips []*jsonl.NotSessionError
			rf := newReadFailures(e)
			if !exists {
				e.warningf("%s: no such folder (%s): Pi has saved no session there yet", dir, sessionfiles.AgentDirSource())
			} else if infos, skips, err = listSessions(c, e, rf, dir, *opts); err != nil {
				return err
			}
			infos = opts.filter(infos)
			if opts.json {
				b, err := jsonout.MarshalArray(lsRows(infos, skips))
				if err == nil {
					err = writeJSONLine(e, b)
				}
				if err != nil {
					return err
				}
			} else if err := writeSessionList(e.stdout, infos, skips, dir, *opts); err != nil {
				return err
			}
			return rf.err()
		}),
	}
}

// lsOptions are ls's flags.
type lsOptions struct {
	json, all, tokens bool
	flat              bool      // no threads: the rows newest first
	cwd               string    // as given; validate makes it a cleaned absolute path ("" for any)
	since             time.Time // zero for any
	limit             int       // 0 for all
}

func (o *lsOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print a JSON array", Destination: &o.json},
		&cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "list archived (compressed) sessions too, which Pi's /resume does not show", Destination: &o.all},
		&cli.StringFlag{Name: "cwd", Usage: "list only sessions whose working folder is `DIR`", Destination: &o.cwd},
		timeFlag("since", "list only sessions active since `WHEN` (an age: 90m, 36h, 7d; a date or an ISO time)", &o.since),
		&cli.IntFlag{Name: "limit", Usage: "print only the `N` newest sessions (0: all)", Destination: &o.limit},
		&cli.BoolFlag{Name: "tokens", Usage: "index each session and add leaves, context tokens, token and cost totals, models", Destination: &o.tokens},
		&cli.BoolFlag{Name: "flat", Usage: "list newest first, without threading clones and forks under their parent", Destination: &o.flat},
	}
}

func (o *lsOptions) validate() error {
	if o.limit < 0 {
		return usagef("--limit takes a number of sessions, not %d", o.limit)
	}
	if o.cwd == "" {
		return nil
	}
	abs, err := filepath.Abs(o.cwd)
	if err != nil {
		return fmt.Errorf("--cwd %s: %w", o.cwd, err)
	}
	o.cwd = abs
	return nil
}

// keepCwd is Pi's test of a session's cwd against --cwd: a cwd that is set
// and resolves to the same folder.
func (o lsOptions) keepCwd(cwd string) bool {
	if cwd == "" {
		return false
	}
	abs, err := filepath.Abs(cwd)
	return err == nil && abs == o.cwd
}

// filter applies --since and --limit to rows sorted newest first.
func (o lsOptions) filter(rows []lsRow) []lsRow {
	if !o.since.IsZero() {
		kept := rows[:0]
		for _, r := range rows {
			if t, err := time.Parse(time.RFC3339, r.Modified); err != nil || !t.Before(o.since) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if o.limit > 0 && len(rows) > o.limit {
		rows = rows[:o.limit]
	}
	return rows
}

// lsRow is one session of the list: Pi's row, pitool's details when asked
// (--tokens), and whether it is archived.
type lsRow struct {
	*jsonl.Listing
	*jsonl.Details
	Archived bool `json:"archived,omitempty"`
}

// lsResult is what reading one file gave: a row, or why there is none.
type lsResult struct {
	row    lsRow
	err    error
	hidden bool // archived, and not listed without --all
}

// listSessions summarises every session under dir, newest first (ties keep
// Pi's order: file name descending), and the files that are not sessions.
// Archived sessions are left out (and counted on stderr) unless opts.all.
func listSessions(c *cli.Context, e *env, rf *readFailures, dir string, opts lsOptions) ([]lsRow, []*jsonl.NotSessionError, error) {
	files, err := runner.Expand([]string{dir}, runner.ExpandOptions{EveryPath: true})
	if err != nil {
		return nil, nil, err
	}
	sortByNameDescending(files)
	results := make([]lsResult, len(files))
	quiet := *e // per-file damage notes (--tokens) would drown the list; unreadable files get one line below
	quiet.stderr = io.Discard
	err = runner.Batched(c.Context, len(files), func() func(i int) {
		var lister jsonl.Lister
		return func(i int) { results[i] = listOne(&quiet, &lister, files[i].File, opts) }
	})
	if err != nil {
		return nil, nil, err
	}
	var skips []*jsonl.NotSessionError
	infos := []lsRow{}
	hidden := 0
	for i, r := range results {
		switch {
		case r.hidden:
			hidden++
		case r.err == nil:
			infos = append(infos, r.row)
		default:
			if ns := noteUnlisted(e, rf, files[i].Path, r.err); ns != nil {
				skips = append(skips, ns)
			}
		}
	}
	if hidden > 0 {
		e.hintf("%s not listed, as Pi's /resume does not list them; pitool ls --all lists them", textout.Count(hidden, "archived (compressed) session file"))
	}
	slices.SortStableFunc(infos, func(a, b lsRow) int { return strings.Compare(b.Modified, a.Modified) })
	return infos, skips, nil
}

// sortByNameDescending puts files in Pi's order before the sort by time:
// file name descending, ties in the walk's order.
func sortByNameDescending(files []runner.Target) {
	slices.SortStableFunc(files, func(a, b runner.Target) int {
		return strings.Compare(filepath.Base(b.Path), filepath.Base(a.Path))
	})
}

// noteUnlisted warns about a file ls could not list and returns it when it
// is not a Pi session, for the skipped rows. A session of another cwd
// (--cwd) is left out silently; one Pi would not list is skipped with a
// warning; one that cannot be read is an error (readFailures).
func noteUnlisted(e *env, rf *readFailures, path string, err error) *jsonl.NotSessionError {
	if ns, ok := jsonl.IsNotSession(err); ok {
		return rf.note(path, ns)
	}
	var unlisted *jsonl.UnlistedError
	switch {
	case errors.As(err, &unlisted):
		e.warningf("%s: skipped: %v", path, unlisted)
	case errors.Is(err, jsonl.ErrOtherCwd):
	case errors.Is(err, jsonl.ErrNoHeader):
		e.warningf("%s: skipped: its first entry is no session header, so Pi does not list it (pitool repair adds one)", path)
	default:
		rf.note(path, err)
	}
	return nil
}

// listOne reads the row of one file with lister: a special file is never
// opened, and an archived one only with --all.
func listOne(e *env, lister *jsonl.Lister, f sessionfiles.File, opts lsOptions) lsResult {
	if ns := f.NotRegular(); ns != nil {
		return lsResult{err: ns}
	}
	archived := !sessionfiles.ListedByPi(f.Path)
	if archived && !opts.all {
		return lsResult{hidden: true}
	}
	lopts := jsonl.ListOptions{Compressed: archived}
	if opts.cwd != "" {
		lopts.KeepCwd = opts.keepCwd
	}
	listing, err := lister.ListFile(f.Path, lopts)
	if errors.Is(err, jsonl.ErrCompressed) { // a .jsonl holding compressed bytes
		if !opts.all {
			return lsResult{hidden: true}
		}
		archived, lopts.Compressed = true, true
		listing, err = lister.ListFile(f.Path, lopts)
	}
	if err != nil {
		return lsResult{err: err}
	}
	row := lsRow{Listing: listing, Archived: archived}
	if opts.tokens {
		info, err := sessionInfo(e, f.Path)
		if err != nil {
			return lsResult{err: err}
		}
		row.Details = &info.Details
	}
	return lsResult{row: row}
}

// lsRows is the --json array: the sessions, then the skipped files.
func lsRows(infos []lsRow, skips []*jsonl.NotSessionError) []any {
	rows := make([]any, 0, len(infos)+len(skips))
	for _, in := range infos {
		rows = append(rows, in)
	}
	for _, ns := range skips {
		rows = append(rows, runner.Skipped(ns).Row)
	}
	return rows
}

// untitledWidth caps a title when the table has no width to fit (output
// that is not a terminal): a first message can be pages long.
const untitledWidth = 80

// writeSessionList prints the rows as Pi's /resume shows them: threads of
// clones and forks under their parent (unless --flat), the title, the
// message count and Pi's age word, then the path; --tokens adds pitool's
// columns. On a terminal the table fits its width, paths shown relative to
// dir (or ~) and cut to their distinguishing tail.
func writeSessionList(w io.Writer, infos []lsRow, skips []*jsonl.NotSessionError, dir string, opts lsOptions) error {
	if len(infos) == 0 && len(skips) == 0 {
		_, err := fmt.Fprintln(w, noSessionsLine(dir, opts))
		return err
	}
	width := textout.Width(w)
	path := func(p string) string { return p }
	if width > 0 {
		home, _ := os.UserHomeDir()
		path = func(p string) string { return textout.ShortPath(p, dir, home) }
	}
	tab := textout.NewTable(lsColumns(opts.tokens)...)
	now := time.Now()
	for _, r := range lsOrder(infos, opts.flat) {
		tab.Add(append(lsCells(r.prefix, infos[r.index], now, width, path), tokenCells(infos[r.index], opts.tokens)...)...)
	}
	for _, ns := range skips {
		tab.Add("skipped: "+ns.Describe(), "-", "-", path(ns.File))
	}
	return tab.Write(w, width)
}

// noSessionsLine says what an empty list had to offer: nothing for the
// project --cwd names, nothing since --since, or nothing at all.
func noSessionsLine(dir string, opts lsOptions) string {
	switch {
	case opts.cwd != "":
		return fmt.Sprintf("no session of project %s under %s", termtext.Visible(opts.cwd), termtext.Visible(dir))
	case !opts.since.IsZero():
		return fmt.Sprintf("no session under %s active since %s", termtext.Visible(dir), opts.since.Format(time.RFC3339))
	}
	return fmt.Sprintf("no sessions under %s", termtext.Visible(dir))
}

func lsColumns(tokens bool) []textout.Column {
	cols := []textout.Column{{Title: "SESSION", Shrink: textout.Clipped, Min: 24}, {Title: "MSGS", Right: true},
		{Title: "AGE", Right: true}, {Title: "PATH", Shrink: textout.Tailed, Min: 20}}
	if tokens { // on a narrow terminal the counts stay; the path and models go
		cols[3].Optional = true
		cols = append(cols, textout.Column{Title: "LEAVES", Right: true}, textout.Column{Title: "CONTEXT", Right: true},
			textout.Column{Title: "TOKENS", Right: true}, textout.Column{Title: "COST", Right: true},
			textout.Column{Title: "MODELS", Shrink: textout.Clipped, Optional: true})
	}
	return cols
}

// lsPlace is a row's place in the list: which session, and the tree drawn
// before its title.
type lsPlace struct {
	index  int
	prefix string
}

// lsOrder is Pi's threaded order of rows sorted newest first, or that
// order itself with --flat.
func lsOrder(infos []lsRow, flat bool) []lsPlace {
	order := make([]lsPlace, len(infos))
	if flat {
		for i := range infos {
			order[i] = lsPlace{index: i}
		}
		return order
	}
	listings := make([]*jsonl.Listing, len(infos))
	for i, in := range infos {
		listings[i] = in.Listing
	}
	for i, t := range jsonl.Threads(listings) {
		order[i] = lsPlace{t.Index, t.Prefix}
	}
	return order
}

// lsCells are Pi's row: title (name, else the first message on one line),
// message count, age; then the path.
func lsCells(prefix string, in lsRow, now time.Time, width int, path func(string) string) []string {
	title := in.Name
	if title == "" {
		title = strings.Join(strings.Fields(in.FirstMessage), " ")
	}
	if in.Archived {
		title = "archived: " + title
	}
	title = termtext.Visible(title)
	if width == 0 {
		title = textout.Clip(title, untitledWidth)
	}
	age := in.Modified
	if t, err := time.Parse(time.RFC3339, in.Modified); err == nil {
		age = textout.Age(t, now)
	}
	return []string{prefix + title, textout.Int(int64(in.MessageCount)), age, path(in.Path)}
}

// tokenCells are the --tokens columns: leaves, context tokens at the
// active leaf, all tokens billed, cost, models.
func tokenCells(in lsRow, tokens bool) []string {
	if !tokens || in.Details == nil {
		return nil
	}
	u := in.Details.Tokens
	return []string{textout.Int(int64(in.Leaves)), textout.Int(int64(in.ContextTokens)),
		textout.Float(u.Input + u.Output + u.CacheRead + u.CacheWrite), fmt.Sprintf("$%.4f", in.Cost), strings.Join(in.Models, ", ")}
}
