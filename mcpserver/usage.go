package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/stats"
)

// The bounds of session_usage, in rows.
const (
	usageDefault = 50
	usageMax     = 500
)

var usageTool = &mcp.Tool{
	Name: "session_usage",
	Description: `Total the tokens (input, output, cache read, cache write) and the cost in dollars of the user's Pi sessions, grouped by ` + groupings() + `, with Pi's own rule (its /session command's). An entry that clones and forks of a session hold again counts once.
Filter by session (an id, a unique prefix, a file path, or "latest"), project (a folder: sessions run in it or under it) and time (since/until: ` + whenHelp + `).
The total covers every row; at most 50 rows per answer by default, 500 with limit. When next_cursor is set, pass it as cursor for the next rows.`,
}

func groupings() string {
	names := make([]string, len(stats.Groupings))
	for i, b := range stats.Groupings {
		names[i] = string(b)
	}
	return strings.Join(names, ", ")
}

type usageIn struct {
	By      string `json:"by,omitempty" jsonschema:"group rows by: day (default), week, month, model, provider, project or session"`
	Session string `json:"session,omitempty" jsonschema:"only this session: an id, a unique prefix, a file path, or latest"`
	Project string `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or lies under it"`
	Since   string `json:"since,omitempty" jsonschema:"only usage at or after: a date, an ISO time or an age (7d, 12h)"`
	Until   string `json:"until,omitempty" jsonschema:"only usage before: a date, an ISO time or an age"`
	Limit   int    `json:"limit,omitempty" jsonschema:"rows per answer (default 50, at most 500)"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer, for the next rows"`
}

type usageOut struct {
	By         string      `json:"by"`
	Rows       []stats.Row `json:"rows"`
	Total      stats.Row   `json:"total"`
	TotalRows  int         `json:"total_rows"`
	NextCursor string      `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next rows; absent on the last"`
}

func (s *server) usage(ctx context.Context, in usageIn) (usageOut, error) {
	opts, err := usageOptions(in)
	if err != nil {
		return usageOut{}, err
	}
	start, err := cursorOffset(in.Cursor)
	if err != nil {
		return usageOut{}, err
	}
	files, err := s.usageFiles(ctx, in.Session, in.Project)
	if err != nil {
		return usageOut{}, err
	}
	rep, _ := stats.Collect(ctx, files, opts)
	if err := ctx.Err(); err != nil {
		return usageOut{}, err
	}
	end := min(len(rep.Rows), start+pageSize(in.Limit, usageDefault, usageMax))
	return usageOut{By: string(rep.By), Rows: append([]stats.Row{}, rep.Rows[min(start, end):end]...), Total: rep.Total,
		TotalRows: len(rep.Rows), NextCursor: nextCursor(end, end < len(rep.Rows))}, nil
}

func usageOptions(in usageIn) (stats.Options, error) {
	var opts stats.Options
	by := in.By
	if by == "" {
		by = string(stats.ByDay)
	}
	var err error
	if opts.By, err = stats.ParseBy(by); err != nil {
		return opts, fmt.Errorf("by: %w (want %s)", err, groupings())
	}
	opts.Since, opts.Until, err = timeRange(in.Since, in.Until)
	return opts, err
}

// usageFiles are the files to total: the one session named, or every
// session of project (all when "").
func (s *server) usageFiles(ctx context.Context, session, project string) ([]string, error) {
	if session != "" {
		path, err := s.opts.Resolve(ctx, s.opts.Folders, session, project)
		return []string{path}, err
	}
	files, err := sessionFiles(s.opts.Folders)
	if err != nil || project == "" {
		return files, err
	}
	return ofProject(ctx, files, underProject(project))
}

// ofProject keeps the files whose header's cwd keep accepts, reading no
// more of each than its header: the lister is told to refuse every cwd,
// after keep has seen it.
func ofProject(ctx context.Context, files []string, keep func(cwd string) bool) ([]string, error) {
	kept := make([]bool, len(files))
	err := parallel.Each(ctx, len(files), 0, func() func(i int) {
		var lister jsonl.Lister
		return func(i int) {
			lister.ListFile(files[i], jsonl.ListOptions{Compressed: true, KeepCwd: func(cwd string) bool {
				kept[i] = keep(cwd)
				return false
			}})
		}
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for i, f := range files {
		if kept[i] {
			out = append(out, f)
		}
	}
	return out, nil
}
