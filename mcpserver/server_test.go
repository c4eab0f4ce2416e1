package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// connect starts a server on opts and returns a client session connected
// to it over the SDK's in-memory transport.
func connect(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// callRaw calls a tool and returns its result, failing on a protocol error.
func callRaw(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return res
}

// call calls a tool that must succeed and decodes its structured answer.
func call[T any](t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) T {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", tool, args, resultText(res))
	}
	var out T
	b, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		t.Fatalf("%s: decoding %s: %v", tool, b, err)
	}
	return out
}

// callError calls a tool that must fail and returns its message.
func callError(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if !res.IsError {
		t.Fatalf("%s %v: no error: %s", tool, args, resultText(res))
	}
	return resultText(res)
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// sessionsFolder copies corpus files into a temporary folder, each under
// the name given.
func sessionsFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, corpus := range files {
		b, err := os.ReadFile(testref.Corpus(corpus))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// v3Folder holds the v3 corpus sessions in two project folders.
func v3Folder(t *testing.T) string {
	return sessionsFolder(t, map[string]string{
		"--home-dev-work-project--/agent-run.jsonl": "v3/agent-run.jsonl",
		"--a--/linear.jsonl":                        "v3/linear.jsonl",
		"--a--/branched.jsonl":                      "v3/branched.jsonl",
		"--a--/crashed.jsonl":                       "v3/crashed.jsonl",
	})
}

func TestListPagesToTheEnd(t *testing.T) {
	cs := connect(t, Options{Folders: []string{v3Folder(t)}})
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		out := call[listOut](t, cs, "list_sessions", map[string]any{"limit": 3, "cursor": cursor})
		if out.Total != 4 || len(out.Sessions) > 3 {
			t.Fatalf("page %d: %d of %d sessions", pages, len(out.Sessions), out.Total)
		}
		for _, s := range out.Sessions {
			if seen[s.ID] || s.ID == "" || s.File == "" {
				t.Fatalf("session %+v twice or without id", s)
			}
			seen[s.ID] = true
		}
		pages++
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 4 || pages != 2 {
		t.Fatalf("%d sessions in %d pages, want 4 in 2", len(seen), pages)
	}
}

func TestListFilters(t *testing.T) {
	cs := connect(t, Options{Folders: []string{v3Folder(t)}})
	out := call[listOut](t, cs, "list_sessions", map[string]any{"project": "/home/dev/work"})
	if out.Total != 1 || out.Sessions[0].Name != "Calc kit chores" {
		t.Fatalf("project /home/dev/work: %+v", out)
	}
	if out := call[listOut](t, cs, "list_sessions", map[string]any{"since": "2099-01-01"}); out.Total != 0 {
		t.Fatalf("since 2099: %d sessions", out.Total)
	}
	if out := call[listOut](t, cs, "list_sessions", map[string]any{"until": "1d"}); out.Total != 4 {
		t.Fatalf("until a day ago: %d sessions, want the 4 of 2026", out.Total)
	}
}

func TestSearch(t *testing.T) {
	cs := connect(t, Options{Folders: []string{v3Folder(t)}})
	project := map[string]any{"pattern": "TEST", "ignore_case": true, "project": "/home/dev/work", "limit": 100}
	all := call[searchOut](t, cs, "search_sessions", project)
	if len(all.Matches) != 5 || all.NextCursor != "" {
		t.Fatalf("%d matches of test in /home/dev/work, want agent-run's 5", len(all.Matches))
	}
	for _, m := range all.Matches {
		if m.SessionID == "" || m.SessionName != "Calc kit chores" || m.EntryID == "" || m.Role == "" || !strings.Contains(strings.ToLower(m.Text), "test") {
			t.Fatalf("match %+v lacks a field or the text", m)
		}
	}
	// paging gives the same matches, in the same order
	var paged []matchOut
	project["limit"] = 2
	for cursor := ""; ; {
		project["cursor"] = cursor
		out := call[searchOut](t, cs, "search_sessions", project)
		paged = append(paged, out.Matches...)
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if a, b := mustJSON(t, all.Matches), mustJSON(t, paged); a != b {
		t.Fatalf("paged matches differ:\n%s\n%s", a, b)
	}
	first := call[searchOut](t, cs, "search_sessions", map[string]any{"pattern": "test"})
	if len(first.Matches) != searchDefault || first.NextCursor != "20" {
		t.Fatalf("default page: %d matches, next %q", len(first.Matches), first.NextCursor)
	}
	users := call[searchOut](t, cs, "search_sessions", map[string]any{"pattern": "test", "roles": []string{"user"}, "tool": "", "limit": 100})
	for _, m := range users.Matches {
		if m.Role != "user" {
			t.Fatalf("roles user gave %+v", m)
		}
	}
	if len(users.Matches) == 0 {
		t.Fatal("roles user: no match")
	}
	bash := call[searchOut](t, cs, "search_sessions", map[string]any{"pattern": "test", "tool": "bash", "limit": 100})
	for _, m := range bash.Matches {
		if m.Tool != "bash" {
			t.Fatalf("tool bash gave %+v", m)
		}
	}
	other := call[searchOut](t, cs, "search_sessions", map[string]any{"pattern": "test", "project": "/nowhere"})
	if len(other.Matches) != 0 {
		t.Fatalf("project /nowhere: %d matches", len(other.Matches))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadPagesToTheEndOfALargeSession reads a 2 MB session in pages and
// finds the transcript pitool show prints, whole, every page within bounds.
func TestReadPagesToTheEndOfALargeSession(t *testing.T) {
	dir := sessionsFolder(t, map[string]string{"big.jsonl": "real/before-compaction.jsonl"})
	cs := connect(t, Options{Folders: []string{dir}, NoRedact: true})
	var got strings.Builder
	pages := 0
	for offset := int64(0); ; pages++ {
		out := call[readOut](t, cs, "read_session", map[string]any{"session": filepath.Join(dir, "big.jsonl"), "offset": offset, "max_bytes": readMax})
		if len(out.Text) > readMax || out.Offset != offset {
			t.Fatalf("page at %d: %d bytes from %d", offset, len(out.Text), out.Offset)
		}
		got.WriteString(out.Text)
		if out.NextOffset == nil {
			break
		}
		offset = *out.NextOffset
	}
	want := transcript(t, filepath.Join(dir, "big.jsonl"), "")
	if got.String() != want {
		t.Fatalf("the pages (%d bytes) differ from the transcript (%d bytes)", got.Len(), len(want))
	}
	if pages < 5 {
		t.Fatalf("%d pages: the session is not large enough to test paging", pages)
	}
}

// transcript is the whole transcript of a branch, unredacted.
func transcript(t *testing.T, path, leaf string) string {
	t.Helper()
	ix, closeIx, err := jsonl.IndexFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIx()
	var b bytes.Buffer
	if err := RenderPlain(context.Background(), &b, ix, leaf, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReadNamesAndBranches(t *testing.T) {
	dir := v3Folder(t)
	cs := connect(t, Options{Folders: []string{dir}, NoRedact: true})
	latest := call[readOut](t, cs, "read_session", map[string]any{"session": "latest"})
	list := call[listOut](t, cs, "list_sessions", nil)
	if latest.SessionID != list.Sessions[0].ID || latest.Offset != 0 || latest.Text == "" {
		t.Fatalf("latest is %s, the list's newest %s", latest.SessionID, list.Sessions[0].ID)
	}
	branched := filepath.Join(dir, "--a--/branched.jsonl")
	byPath := call[readOut](t, cs, "read_session", map[string]any{"session": branched})
	byPrefix := call[readOut](t, cs, "read_session", map[string]any{"session": byPath.SessionID[:13]})
	if byPrefix.File != branched || byPrefix.Text != byPath.Text {
		t.Fatalf("prefix %s read %s", byPath.SessionID[:13], byPrefix.File)
	}
	// an entry off the active branch is read on the branch that ends at it
	ix, closeIx, err := jsonl.IndexFile(branched, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIx()
	active, _ := ix.Path(ix.ActiveLeaf())
	off := offBranchLeaf(ix, active)
	around := call[readOut](t, cs, "read_session", map[string]any{"session": branched, "entry": off, "max_bytes": 4000})
	if around.Leaf != off || around.Offset == 0 && len(transcript(t, branched, off)) > 4000 {
		t.Fatalf("entry %s: leaf %q at %d", off, around.Leaf, around.Offset)
	}
	tiny := call[readOut](t, cs, "read_session", map[string]any{"session": branched, "max_bytes": 1})
	if len(tiny.Text) < readMin-utf8.UTFMax || len(tiny.Text) > readMin || tiny.NextOffset == nil {
		t.Fatalf("max_bytes 1: a page of %d bytes", len(tiny.Text))
	}
	whole := transcript(t, branched, off)
	if !strings.HasPrefix(whole[around.Offset:], around.Text) {
		t.Fatalf("entry %s: the page is not the transcript of its branch at %d", off, around.Offset)
	}
}

// offBranchLeaf is a leaf of ix that is not the active one's.
func offBranchLeaf(ix *jsonl.Index, active []int) string {
	onActive := map[int]bool{}
	for _, e := range active {
		onActive[e] = true
	}
	for _, l := range ix.Leaves() {
		if !onActive[l] && ix.HasID(l) {
			return ix.ID(l)
		}
	}
	return ""
}

func TestUsage(t *testing.T) {
	cs := connect(t, Options{Folders: []string{v3Folder(t)}})
	byModel := call[usageOut](t, cs, "session_usage", map[string]any{"by": "model"})
	if byModel.By != "model" || byModel.Total.TotalTokens == 0 || byModel.TotalRows == 0 {
		t.Fatalf("by model: %+v", byModel)
	}
	var rows int
	for cursor := ""; ; {
		out := call[usageOut](t, cs, "session_usage", map[string]any{"by": "session", "limit": 1, "cursor": cursor})
		rows += len(out.Rows)
		if out.Total != byModel.Total {
			t.Fatalf("by session total %+v, by model %+v", out.Total, byModel.Total)
		}
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if rows < 2 {
		t.Fatalf("%d session rows", rows)
	}
	one := call[usageOut](t, cs, "session_usage", map[string]any{"session": "latest", "by": "session"})
	if one.TotalRows > 1 {
		t.Fatalf("session latest: %d rows", one.TotalRows)
	}
	project := call[usageOut](t, cs, "session_usage", map[string]any{"project": "/nowhere"})
	if project.TotalRows != 0 {
		t.Fatalf("project /nowhere: %+v", project)
	}
}

func TestErrors(t *testing.T) {
	dir := sessionsFolder(t, map[string]string{
		"2026-01-01T00-00-00-000Z_01a22eed-65d9-75ee-8217-1d219d6e0001.jsonl": "v3/linear.jsonl",
		"2026-01-02T00-00-00-000Z_01a22eed-65d9-75ee-8217-1d219d6e0002.jsonl": "v3/crashed.jsonl",
	})
	cs := connect(t, Options{Folders: []string{dir}})
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_session", map[string]any{"session": "0ffff"}, `no session with id or id prefix "0ffff"`},
		{"read_session", map[string]any{"session": "01a22eed"}, `"01a22eed" names 2 sessions; give more of the id`},
		{"read_session", map[string]any{"session": "01a22eed"}, "_01a22eed-65d9-75ee-8217-1d219d6e0002.jsonl"},
		{"read_session", map[string]any{"session": "/etc/passwd"}, "no session file /etc/passwd under the folders served"},
		{"read_session", map[string]any{"session": ""}, "no session named"},
		{"read_session", map[string]any{"session": "latest", "entry": "nope"}, `no entry "nope" in this session`},
		{"read_session", map[string]any{"session": "latest", "project": "/nowhere"}, "no session of project /nowhere"},
		{"read_session", map[string]any{}, "session"},
		{"search_sessions", map[string]any{"pattern": "a(", "regexp": true}, "pattern invalid"},
		{"search_sessions", map[string]any{"pattern": ""}, "pattern invalid: the pattern is empty"},
		{"search_sessions", map[string]any{"pattern": "x", "roles": []string{"robot"}}, `unknown role "robot" (want user, assistant`},
		{"search_sessions", map[string]any{"pattern": "x", "since": "last tuesday"}, `since: "last tuesday" is not a time: an age`},
		{"search_sessions", map[string]any{"pattern": "x", "branch": "main"}, "neither all nor active"},
		{"search_sessions", map[string]any{"pattern": "x", "cursor": "abc"}, "is not one this server returned"},
		{"list_sessions", map[string]any{"until": "soon"}, `until: "soon" is not a time: an age`},
		{"session_usage", map[string]any{"by": "color"}, "want day, week, month, model, provider, project, session"},
		{"session_usage", map[string]any{"session": "0ffff"}, "no session with id"},
	}
	for _, c := range cases {
		if msg := callError(t, cs, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: %q, want it to say %q", c.tool, c.args, msg, c.want)
		}
	}
	// the server still answers after every error
	if out := call[listOut](t, cs, "list_sessions", nil); out.Total != 2 {
		t.Fatalf("after the errors: %d sessions", out.Total)
	}
}

func TestNoRedactIsSaid(t *testing.T) {
	for _, noRedact := range []bool{false, true} {
		cs := connect(t, Options{Folders: []string{t.TempDir()}, NoRedact: noRedact})
		said := strings.Contains(cs.InitializeResult().Instructions, "Redaction is OFF")
		if said != noRedact {
			t.Errorf("NoRedact %v: instructions say it is off: %v", noRedact, said)
		}
	}
}

// TestReadSeesAnAppend: a page cut from a cached transcript is cut from
// the file as it is now: after Pi appends a turn, the next page shows it.
func TestReadSeesAnAppend(t *testing.T) {
	dir := sessionsFolder(t, map[string]string{"s.jsonl": "v3/linear.jsonl"})
	path := filepath.Join(dir, "s.jsonl")
	cs := connect(t, Options{Folders: []string{dir}, NoRedact: true})
	read := func(offset int64) readOut {
		return call[readOut](t, cs, "read_session", map[string]any{"session": path, "offset": offset, "max_bytes": 4000})
	}
	first := read(0)
	if first.NextOffset == nil {
		t.Fatal("the session fits one page: no second page to cache")
	}
	before := read(*first.NextOffset) // rendered whole, and cached
	ix, closeIx, err := jsonl.IndexFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := ix.ID(ix.ActiveLeaf())
	closeIx()
	line := `{"type":"message","id":"appended1","parentId":"` + last + `","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"an appended question about zebras","timestamp":1}}` + "\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(line)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for out := first; ; {
		text.WriteString(out.Text)
		if out.NextOffset == nil {
			break
		}
		out = read(*out.NextOffset)
	}
	if strings.Contains(before.Text, "zebras") || !strings.Contains(text.String(), "an appended question about zebras") {
		t.Fatal("the appended turn is not in the pages read after it")
	}
}

// TestPanicIsAnError: a tool that panics (here a renderer) answers with an
// error, and the server answers the next call.
func TestPanicIsAnError(t *testing.T) {
	dir := v3Folder(t)
	panicky := func(context.Context, io.Writer, *jsonl.Index, string, func([]byte) ([]byte, error)) error {
		panic("renderer bug")
	}
	cs := connect(t, Options{Folders: []string{dir}, Render: panicky})
	if msg := callError(t, cs, "read_session", map[string]any{"session": "latest"}); !strings.Contains(msg, "read_session failed on an internal error (renderer bug)") {
		t.Fatalf("panic: %q", msg)
	}
	if out := call[listOut](t, cs, "list_sessions", nil); out.Total != 4 {
		t.Fatalf("after the panic: %d sessions", out.Total)
	}
}
