package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/search"
)

// The bounds of search_sessions.
const (
	searchDefault = 20  // matches per page when limit is unset
	searchMax     = 100 // matches per page at most
	copiesNamed   = 5   // other files named for a match that copies share
)

// searchRoles are the roles the roles parameter takes.
var searchRoles = []string{jsonl.RoleUser, jsonl.RoleAssistant, jsonl.RoleToolResult, jsonl.RoleBashExecution,
	jsonl.RoleCustom, jsonl.RoleBranchSummary, jsonl.RoleCompactionSummary}

var searchTool = &mcp.Tool{
	Name: "search_sessions",
	Description: `Search the user's past Pi coding agent sessions for a word, phrase, error message, file name or regexp, in what was said and done: user and assistant text, thinking, tool-call arguments, tool results, bash commands and output, summaries. Matching is on the decoded text, across every session and every branch.
Each match gives the session id and name, the entry_id (pass it to read_session as entry to read the conversation around it), role, kind, tool, time, and the line of text around the match (at most about 120 characters of context). A match that clones and forks of a session share is given once, naming the other files.
Filters: roles (` + strings.Join(searchRoles, ", ") + `), tool (a tool's calls and results), project (a folder: sessions run in it or under it), since/until (` + whenHelp + `), branch ("all", or "active": only the path to each session's active leaf).
At most 20 matches per answer by default, 100 with limit. When next_cursor is set, pass it as cursor (with the same parameters) for the next page.`,
}

type searchIn struct {
	Pattern    string   `json:"pattern" jsonschema:"the text to find: a literal, or with regexp a Go RE2 regular expression"`
	Regexp     bool     `json:"regexp,omitempty" jsonschema:"pattern is a Go RE2 regular expression"`
	IgnoreCase bool     `json:"ignore_case,omitempty" jsonschema:"ignore case"`
	Roles      []string `json:"roles,omitempty" jsonschema:"only texts of these roles: user, assistant, toolResult, bashExecution, custom, branchSummary, compactionSummary"`
	Tool       string   `json:"tool,omitempty" jsonschema:"only the calls of this tool (bash, read, edit, ...) and their results"`
	Project    string   `json:"project,omitempty" jsonschema:"only sessions whose working folder is this folder or lies under it"`
	Since      string   `json:"since,omitempty" jsonschema:"only entries at or after: a date, an ISO time or an age (7d, 12h)"`
	Until      string   `json:"until,omitempty" jsonschema:"only entries before: a date, an ISO time or an age"`
	Branch     string   `json:"branch,omitempty" jsonschema:"all (default: every branch) or active (the path to each session's active leaf)"`
	Limit      int      `json:"limit,omitempty" jsonschema:"matches per answer (default 20, at most 100)"`
	Cursor     string   `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer, for the next page"`
}

// matchOut is one match.
type matchOut struct {
	SessionID   string   `json:"session_id"`
	SessionName string   `json:"session_name,omitempty"`
	File        string   `json:"file"`
	EntryID     string   `json:"entry_id"`
	Line        int      `json:"line"`
	Role        string   `json:"role"`
	Kind        string   `json:"kind"`
	Tool        string   `json:"tool,omitempty"`
	Time        string   `json:"time,omitempty"`
	Text        string   `json:"text" jsonschema:"the line of text around the match"`
	AlsoIn      []string `json:"also_in,omitempty" jsonschema:"other files (clones, forks, copies) that hold the same match; at most 5 named"`
	AlsoInCount int      `json:"also_in_count,omitempty"`
}

type searchOut struct {
	Matches    []matchOut `json:"matches"`
	NextCursor string     `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last"`
	Unreadable int        `json:"unreadable_files,omitempty" jsonschema:"session files that could not be searched"`
}

func (s *server) search(ctx context.Context, in searchIn) (searchOut, error) {
	m, err := search.Compile(in.Pattern, in.Regexp, in.IgnoreCase)
	if err != nil {
		return searchOut{}, fmt.Errorf("pattern invalid: %w", err)
	}
	opts, err := searchOptions(in)
	if err != nil {
		return searchOut{}, err
	}
	skip, err := cursorOffset(in.Cursor)
	if err != nil {
		return searchOut{}, err
	}
	files, err := sessionFiles(s.opts.Folders)
	if err != nil {
		return searchOut{}, err
	}
	c := &collector{skip: skip, limit: pageSize(in.Limit, searchDefault, searchMax)}
	if err := search.Run(ctx, m, opts, files, 0, c); err != nil && !errors.Is(err, errPageFull) {
		return searchOut{}, fmt.Errorf("searching: %w", err)
	}
	texts := make([]string, len(c.matches))
	for i, m := range c.matches {
		texts[i] = snippet(m)
	}
	if s.redactr != nil {
		if err := s.scrubMatches(c.matches, texts); err != nil {
			return searchOut{}, err
		}
	}
	out := searchOut{Matches: matchesOut(c.matches, texts), Unreadable: c.unreadable,
		NextCursor: nextCursor(skip+len(c.matches), c.more)}
	return out, nil
}

// searchOptions reads the filters.
func searchOptions(in searchIn) (search.Options, error) {
	opts := search.Options{Copies: true}
	var err error
	if opts.Since, opts.Until, err = timeRange(in.Since, in.Until); err != nil {
		return opts, err
	}
	for _, r := range in.Roles {
		if !slices.Contains(searchRoles, r) {
			return opts, fmt.Errorf("roles: unknown role %q (want %s)", r, strings.Join(searchRoles, ", "))
		}
		if opts.Roles == nil {
			opts.Roles = map[string]bool{}
		}
		opts.Roles[r] = true
	}
	opts.Tool, opts.Cwd = in.Tool, in.Project
	switch in.Branch {
	case "", "all":
	case "active":
		opts.Active = true
	default:
		return opts, fmt.Errorf("branch: %q is neither all nor active", in.Branch)
	}
	return opts, nil
}

// errPageFull stops a search once a page and one match more are found.
var errPageFull = errors.New("page full")

// collector keeps the matches of one page: it skips the earlier pages'
// and stops the search at the first match past the page.
type collector struct {
	skip, limit int
	seen        int
	matches     []search.Match
	more        bool
	unreadable  int
}

func (c *collector) Match(m search.Match) error {
	c.seen++
	if c.seen <= c.skip {
		return nil
	}
	if len(c.matches) == c.limit {
		c.more = true
		return errPageFull
	}
	c.matches = append(c.matches, m)
	return nil
}

func (c *collector) FileDone(r search.FileResult) error {
	if r.Err != nil {
		c.unreadable++
	}
	return nil
}

// matchesOut turns matches into the answer's, with each file's session id
// and name read once.
func matchesOut(ms []search.Match, texts []string) []matchOut {
	out := []matchOut{}
	sessions := map[string]*jsonl.Listing{}
	var lister jsonl.Lister
	for i, m := range ms {
		l, ok := sessions[m.File]
		if !ok {
			l, _ = lister.ListFile(m.File, jsonl.ListOptions{Compressed: true})
			sessions[m.File] = l
		}
		mo := matchOut{File: m.File, EntryID: m.ID, Line: m.Line, Role: m.Role, Kind: m.Kind, Tool: m.Tool,
			Time: m.Timestamp, Text: texts[i], AlsoInCount: len(m.Copies)}
		mo.AlsoIn = m.Copies[:min(len(m.Copies), copiesNamed)]
		if l != nil {
			mo.SessionID, mo.SessionName = l.ID, clip(l.Name, firstMessageRune)
		}
		out = append(out, mo)
	}
	return out
}

// snippet is the line around a match in one piece (a match apart from its
// context, or marked inside it, could be the part of a secret that redact's
// rules no longer recognise), without the words search's clipping cut
// short, for the same reason.
func snippet(m search.Match) string {
	left, right := m.Before+m.Text+m.After, ""
	if r := []rune(m.Text); len(r) == 2*search.SnippetRunes+1 && r[search.SnippetRunes] == '…' {
		left = dropCutTail(m.Before + string(r[:search.SnippetRunes]))
		right = "…" + dropCutHead(string(r[search.SnippetRunes+1:])+m.After)
	}
	if rest, ok := strings.CutPrefix(left, "…"); ok && strings.HasPrefix(m.Before, "…") {
		left = "…" + dropCutHead(rest)
	}
	whole := left + right
	if rest, ok := strings.CutSuffix(whole, "…"); ok && strings.HasSuffix(m.After, "…") {
		whole = dropCutTail(rest) + "…"
	}
	return whole
}
