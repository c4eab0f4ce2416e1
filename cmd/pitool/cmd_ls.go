package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func lsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "ls",
		Usage:     "list sessions as Pi's /resume does, newest first",
		ArgsUsage: "[DIR] [--all]",
		Description: `Lists the sessions under DIR (searched recursively, so Pi's per-project folders
are included): name or first message, message count, last activity, and path,
newest first. DIR defaults to Pi's sessions folder: $PI_CODING_AGENT_DIR/sessions,
or ~/.pi/agent/sessions. Symlinked folders and files are followed, as Pi does.
Files that are not Pi sessions are listed last as skipped, with the reason (and
a warning on stderr); files Pi cannot open (no header) or cannot read are
skipped with a warning on stderr.

Compressed sessions (.jsonl.gz, .jsonl.zst: what nightly --archive-after
writes, or a .jsonl holding compressed bytes) are archived: Pi's /resume does
not list them, so neither does ls, which says how many it left out. --all
lists them too, marked "archived:"; pitool unarchive brings one back.

A DIR or $PI_CODING_AGENT_DIR that does not exist is an error (exit 2); a
sessions folder Pi has not made yet lists nothing, with a warning, as Pi's
/resume shows nothing.

--json prints the rows as a JSON array (the fields of pitool info --json, and
"archived": true on an archived one); a skipped file is a row {"file", "skipped"}.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array"},
			&cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "list archived (compressed) sessions too, which Pi's /resume does not show"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("ls takes at most one DIR")
			}
			dir, exists, err := lsFolder(c.Args().First())
			if err != nil {
				return err
			}
			infos := []lsRow{}
			var skips []*jsonl.NotSessionError
			if !exists {
				e.warningf("%s: no such folder (%s): Pi has saved no session there yet", dir, sessionfiles.AgentDirSource())
			} else if infos, skips, err = listSessions(c, e, dir, c.Bool("all")); err != nil {
				return err
			}
			if c.Bool("json") {
				b, err := marshalOutput(lsRows(infos, skips))
				if err != nil {
					return err
				}
				return writeJSONLine(e, b)
			}
			return writeSessionList(e.stdout, infos, skips, dir)
		},
	}
}

// lsRow is one session of the list: its info and whether it is archived.
type lsRow struct {
	*jsonl.Info
	Archived bool `json:"archived,omitempty"`
}

// listSessions summarises every session under dir, newest first (ties keep
// Pi's order: file name descending), and the files that are not sessions.
// Archived sessions are left out (and counted on stderr) unless all is set.
func listSessions(c *cli.Context, e *env, dir string, all bool) ([]lsRow, []*jsonl.NotSessionError, error) {
	files, err := sessionfiles.Expand([]string{dir})
	if err != nil {
		return nil, nil, err
	}
	var skips []*jsonl.NotSessionError
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i].Path) > filepath.Base(files[j].Path) })
	infos := []lsRow{}
	quiet := *e // per-file damage notes would drown the list; unreadable files get one line below
	quiet.stderr = io.Discard
	hidden := 0
	for _, f := range files {
		if err := c.Context.Err(); err != nil {
			return nil, nil, err
		}
		isArchive := archived(f)
		if isArchive && !all {
			hidden++
			continue
		}
		info, err := lsInfo(&quiet, f)
		if ns, ok := jsonl.IsNotSession(err); ok {
			noteSkipped(e, ns)
			skips = append(skips, ns)
			continue
		}
		if err != nil {
			e.warningf("%s: skipped: %s", f.Path, strings.TrimPrefix(fileError(f.Path, err), f.Path+": "))
			continue
		}
		if !info.HasHeader {
			e.warningf("%s: skipped: no session header, so Pi cannot open it (pitool repair adds one)", f.Path)
			continue
		}
		infos = append(infos, lsRow{info, isArchive})
	}
	if hidden > 0 {
		e.hintf("%d archived (compressed) session file(s) not listed, as Pi's /resume does not list them; pitool ls --all lists them", hidden)
	}
	sort.SliceStable(infos, func(i, j int) bool { return infos[i].Modified > infos[j].Modified })
	return infos, skips, nil
}

// archived reports whether Pi's /resume leaves f out although pitool reads
// it: a compressed session, known by its name or, for a .jsonl, by its
// content (Pi reads it as text and finds no header). A file that is not a
// regular file is never opened.
func archived(f sessionfiles.File) bool {
	return !sessionfiles.ListedByPi(f.Path) || f.Special == "" && isCompressed(f.Path)
}

// lsRows is the --json array: the sessions, then the skipped files.
func lsRows(infos []lsRow, skips []*jsonl.NotSessionError) []any {
	rows := make([]any, 0, len(infos)+len(skips))
	for _, in := range infos {
		rows = append(rows, in)
	}
	for _, ns := range skips {
		rows = append(rows, skippedJSON(ns))
	}
	return rows
}

func writeSessionList(w io.Writer, infos []lsRow, skips []*jsonl.NotSessionError, dir string) error {
	if len(infos) == 0 && len(skips) == 0 {
		_, err := fmt.Fprintf(w, "no sessions under %s\n", dir)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODIFIED\tMSGS\tSESSION\tPATH")
	for _, in := range infos {
		title := in.Name
		if title == "" {
			title = strings.Join(strings.Fields(in.FirstMessage), " ")
		}
		if in.Archived {
			title = "archived: " + title
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", ago(in.Modified), in.MessageCount, clip(termtext.Visible(title), 60), termtext.Visible(in.Path))
	}
	for _, ns := range skips {
		fmt.Fprintf(tw, "-\t-\tskipped: %s\t%s\n", termtext.Visible(ns.Describe()), termtext.Visible(ns.File))
	}
	return tw.Flush()
}

// ago renders an ISO time as a short relative age, as Pi's list does.
func ago(iso string) string {
	t, err := time.Parse(time.RFC3339, iso)
	if err != nil {
		return iso
	}
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Format("2006-01-02")
}

// lsInfo summarises one file of the listing; a special file is not opened.
func lsInfo(e *env, f sessionfiles.File) (*jsonl.Info, error) {
	if ns := f.NotRegular(); ns != nil {
		return nil, ns
	}
	return sessionInfo(e, f.Path)
}
