package mcpserver

import (
	"context"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/jsonl"
)

// The bounds of list_sessions.
const (
	listDefault      = 20  // sessions per page when limit is unset
	listMax          = 200 // sessions per page at most
	firstMessageRune = 200 // characters of a first message or a name shown
)

var listTool = &mcp.Tool{
	Name: "list_sessions",
	Description: `List the user's Pi coding agent sessions, newest activity first, as Pi's /resume lists them: id, name or first message, project folder (cwd), message count, created and last active times, file.
Filter by project (a folder: its sessions and those of folders under it) and by time of last activity (since/until: ` + whenHelp + `).
At most 20 sessions per answer by default, 200 with limit; first messages and names are clipped to 200 characters. When next_cursor is set, pass it as cursor for the next page.`,
}

type listIn struct {
	Project string `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or lies under it"`
	Since   string `json:"since,omitempty" jsonschema:"only sessions active since: a date, an ISO time or an age (7d, 12h)"`
	Until   string `json:"until,omitempty" jsonschema:"only sessions last active before: a date, an ISO time or an age"`
	Limit   int    `json:"limit,omitempty" jsonschema:"sessions per answer (default 20, at most 200)"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer, for the next page"`
}

// sessionRow is one session of a list.
type sessionRow struct {
	ID            string `json:"id"`
	Name          string `json:"name,omitempty"`
	FirstMessage  string `json:"first_message,omitempty"`
	Project       string `json:"project"`
	Messages      int    `json:"messages"`
	Created       string `json:"created,omitempty"`
	LastActive    string `json:"last_active"`
	File          string `json:"file"`
	ParentSession string `json:"parent_session,omitempty"`
}

type listOut struct {
	Sessions   []sessionRow `json:"sessions"`
	Total      int          `json:"total" jsonschema:"how many sessions match, over every page"`
	NextCursor string       `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last"`
}

func (s *server) list(ctx context.Context, in listIn) (listOut, error) {
	since, until, err := timeRange(in.Since, in.Until)
	if err != nil {
		return listOut{}, err
	}
	start, err := cursorOffset(in.Cursor)
	if err != nil {
		return listOut{}, err
	}
	files, err := sessionFiles(s.opts.Folders)
	if err != nil {
		return listOut{}, err
	}
	rows, err := listFiles(ctx, files, underProject(in.Project))
	if err != nil {
		return listOut{}, err
	}
	rows = activeBetween(rows, since, until)
	n := pageSize(in.Limit, listDefault, listMax)
	end := min(len(rows), start+n)
	out := listOut{Sessions: []sessionRow{}, Total: len(rows), NextCursor: nextCursor(end, end < len(rows))}
	for _, l := range rows[min(start, end):end] {
		out.Sessions = append(out.Sessions, rowOf(l))
	}
	return out, nil
}

// activeBetween keeps the rows last active at or after since and before
// until (zero times: open ends); a row whose time cannot be read is kept, as
// ls keeps it.
func activeBetween(rows []*jsonl.Listing, since, until time.Time) []*jsonl.Listing {
	kept := rows[:0]
	for _, l := range rows {
		t, err := time.Parse(time.RFC3339, l.Modified)
		if err != nil || (!t.Before(since) && (until.IsZero() || t.Before(until))) {
			kept = append(kept, l)
		}
	}
	return kept
}

func rowOf(l *jsonl.Listing) sessionRow {
	r := sessionRow{ID: l.ID, Name: clip(l.Name, firstMessageRune), Project: l.Cwd, Messages: l.MessageCount,
		LastActive: l.Modified, File: l.Path, ParentSession: l.ParentSessionPath}
	if l.Name == "" {
		r.FirstMessage = clip(strings.Join(strings.Fields(l.FirstMessage), " "), firstMessageRune)
	}
	if l.Created != nil {
		r.Created = *l.Created
	}
	return r
}
