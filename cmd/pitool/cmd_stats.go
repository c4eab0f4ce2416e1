package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/stats"
	"github.com/urfave/cli/v2"
)

// statsOptions are stats' flags.
type statsOptions struct {
	by                 string
	json, csv, perFile bool
	since, until       time.Time
}

func (o *statsOptions) flags() []cli.Flag {
	return []cli.Flag{
		choiceFlag("by", "group by `WHAT`: "+strings.Join(statsGroupings(), ", "), statsGroupings(), string(stats.ByDay), &o.by),
		&cli.BoolFlag{Name: "json", Usage: "print the report as JSON", Destination: &o.json},
		&cli.BoolFlag{Name: "csv", Usage: "print the report as CSV", Destination: &o.csv},
		&cli.BoolFlag{Name: "per-file", Usage: "count each file's entries as Pi's /session does, copies in other files again", Destination: &o.perFile},
		timeFlag("since", sinceUsage, &o.since),
		timeFlag("until", untilUsage, &o.until),
	}
}

func (o *statsOptions) validate() error { return nil }

func statsCommand(e *env) *cli.Command {
	opts := &statsOptions{}
	return &cli.Command{
		Name:      "stats",
		Usage:     "total tokens and cost across sessions, by day, week, month, model, provider, project or session",
		ArgsUsage: "[PATH…]",
		Description: `Totals input, output, cache read and cache write tokens and the cost of the
sessions under PATH (files or folders, searched recursively; .gz and .zst
too; Pi's sessions folder by default), with Pi's own rule, the one its
/session command applies: the usage of every assistant message, of every
usage entry, and of tool results, compactions and branch summaries that
carry one (these under "Tools/summaries"), over every branch.

Each billed entry counts once across the sessions: /clone, /fork, pitool
clone and fork, and a plain copy of a file write entries into another file
again, and those copies count under the session that first held them (the
one whose header is earliest, then by path), not anew. A copy is recognised
by the whole entry but its parentId (its id, timestamp and message, usage
and responseId included), so two different answers are never merged, even
with the same timestamp and token total. The table ends with how many copies
were left out; --per-file counts every file's own, as Pi's /session does in
each, and then a session's totals are those pitool info prints.

--by groups the rows (day, week and month by the entry's local time; model is
the model that answered). --since and --until keep the entries in a time
range. The table ends with the total; --json prints {by, rows, total,
repeated} and --csv one line per row, the total last.

` + helpReadFailures,
		Flags:  opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error { return runStats(c, e, opts) }),
	}
}

// statsGroupings names the groupings --by takes.
func statsGroupings() []string {
	names := make([]string, len(stats.Groupings))
	for i, b := range stats.Groupings {
		names[i] = string(b)
	}
	return names
}

func runStats(c *cli.Context, e *env, o *statsOptions) error {
	opts := stats.Options{By: stats.By(o.by), Stdin: e.stdin, PerFile: o.perFile, Since: o.since, Until: o.until}
	files, rf, err := sessionPaths(e, c.Args().Slice())
	if err != nil {
		return err
	}
	rep, failed := stats.Collect(c.Context, files, opts)
	if err := c.Context.Err(); err != nil {
		return err
	}
	for _, f := range failed {
		rf.note(f.File, f.Err)
	}
	if err := writeStats(e, o, rep); err != nil {
		return err
	}
	return rf.err()
}

func writeStats(e *env, o *statsOptions, rep *stats.Report) error {
	switch {
	case o.json:
		b, err := jsonout.Marshal(rep)
		if err != nil {
			return err
		}
		return writeJSONLine(e, b)
	case o.csv:
		return writeStatsCSV(e.stdout, rep)
	}
	return writeStatsTable(e.stdout, rep)
}

// statsColumns are the columns of the table and the CSV after the key.
var statsColumns = []string{"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "entries", "sessions"}

func statsCells(r *stats.Row, tokens func(float64) string, cost string) []string {
	return []string{tokens(r.Input), tokens(r.Output), tokens(r.CacheRead), tokens(r.CacheWrite), tokens(r.TotalTokens),
		cost, tokens(float64(r.Entries)), tokens(float64(r.Sessions))}
}

func writeStatsCSV(w io.Writer, rep *stats.Report) error {
	cw := csv.NewWriter(w)
	plain := func(f float64) string { return fmt.Sprintf("%.0f", f) }
	cw.Write(append([]string{string(rep.By)}, statsColumns...))
	for _, r := range append(rep.Rows, rep.Total) {
		cw.Write(append([]string{r.Key}, statsCells(&r, plain, fmt.Sprintf("%.6f", r.Cost))...))
	}
	cw.Flush()
	return cw.Error()
}

// writeStatsTable prints the rows and the total as a table that fits the
// terminal, counts with separators: a long key is clipped (a path, with --by
// session or project, cut to its end, home as ~), and on a narrow terminal the
// sessions, entries and cache columns give way, rightmost first.
func writeStatsTable(w io.Writer, rep *stats.Report) error {
	width := textout.Width(w)
	cols := []textout.Column{{Title: strings.ToUpper(string(rep.By)), Shrink: textout.Clipped, Min: 16}}
	key := func(k string) string { return k }
	if rep.By == stats.BySession || rep.By == stats.ByProject {
		cols[0].Shrink = textout.Tailed
		if width > 0 {
			home, _ := os.UserHomeDir()
			key = func(k string) string { return textout.ShortPath(k, "", home) }
		}
	}
	for _, title := range []string{"INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "TOTAL", "COST", "ENTRIES", "SESSIONS"} {
		optional := strings.HasPrefix(title, "CACHE") || title == "ENTRIES" || title == "SESSIONS"
		cols = append(cols, textout.Column{Title: title, Right: true, Optional: optional})
	}
	tab := textout.NewTable(cols...)
	for _, r := range append(rep.Rows, rep.Total) {
		tab.Add(append([]string{key(r.Key)}, statsCells(&r, textout.Float, fmt.Sprintf("$%.4f", r.Cost))...)...)
	}
	if err := tab.Write(w, width); err != nil {
		return err
	}
	if rep.Repeated > 0 {
		_, err := fmt.Fprintf(w, "(%s copied between files counted once; see --per-file)\n",
			textout.Count(rep.Repeated, "billed entry"))
		return err
	}
	return nil
}
