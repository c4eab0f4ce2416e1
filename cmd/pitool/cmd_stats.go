package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/stats"
	"github.com/urfave/cli/v2"
)

func statsCommand(e *env) *cli.Command {
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
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "by", Value: string(stats.ByDay), Usage: "group by `WHAT`: " + strings.Join(statsGroupings(), ", ")},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.BoolFlag{Name: "csv", Usage: "print the report as CSV"},
			&cli.BoolFlag{Name: "per-file", Usage: "count each file's entries as Pi's /session does, copies in other files again"},
		}, timeFlags...),
		Action: func(c *cli.Context) error { return runStats(c, e) },
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

func runStats(c *cli.Context, e *env) error {
	by, err := stats.ParseBy(c.String("by"))
	if err != nil {
		return usagef("--by: %s (want %s)", err, strings.Join(statsGroupings(), ", "))
	}
	opts := stats.Options{By: by, Stdin: e.stdin, PerFile: c.Bool("per-file")}
	if opts.Since, opts.Until, err = timeRange(c); err != nil {
		return err
	}
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
	if err := writeStats(c, e, rep); err != nil {
		return err
	}
	return rf.err()
}

func writeStats(c *cli.Context, e *env, rep *stats.Report) error {
	switch {
	case c.Bool("json"):
		b, err := marshalOutput(rep)
		if err != nil {
			return err
		}
		return writeJSONLine(e, b)
	case c.Bool("csv"):
		return writeStatsCSV(e.stdout, rep)
	}
	return writeStatsTable(e.stdout, rep)
}

// statsColumns are the columns of the table and the CSV after the key.
var statsColumns = []string{"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "entries", "sessions"}

func statsCells(r *stats.Row, tokens func(float64) string, cost string) []string {
	return []string{tokens(r.Input), tokens(r.Output), tokens(r.CacheRead), tokens(r.CacheWrite), tokens(r.TotalTokens),
		cost, fmt.Sprint(r.Entries), fmt.Sprint(r.Sessions)}
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

// writeStatsTable prints the rows and the total, the key left-aligned and
// the figures right-aligned.
func writeStatsTable(w io.Writer, rep *stats.Report) error {
	table := [][]string{{strings.ToUpper(string(rep.By)), "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "TOTAL", "COST", "ENTRIES", "SESSIONS"}}
	for _, r := range append(rep.Rows, rep.Total) {
		key := termtext.Visible(r.Key) // a model, provider or project name from a session
		table = append(table, append([]string{key}, statsCells(&r, groupedInt, fmt.Sprintf("$%.4f", r.Cost))...))
	}
	widths := make([]int, len(table[0]))
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range table {
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteByte('\n')
	}
	if rep.Repeated > 0 {
		fmt.Fprintf(&b, "(%s billed entries that clones, forks or copies hold again counted once; --per-file counts them in each file)\n", groupedInt(float64(rep.Repeated)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupedInt writes a token count with thousands separated: 1,234,567.
func groupedInt(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
