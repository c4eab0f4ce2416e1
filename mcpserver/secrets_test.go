package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/internal/testref"
)

// leakWindow is the longest stretch of a planted secret an answer may
// show, as for pitool redact's outputs.
const leakWindow = 16

// TestNoSecretReachesTheAgent calls every tool, through every page, on the
// corpus's planted-secrets session (also under a Pi name, so that its id
// resolves, and in a second project), and finds no planted value, nor any
// 16 bytes of one, in any answer or error.
func TestNoSecretReachesTheAgent(t *testing.T) {
	dir := sessionsFolder(t, map[string]string{
		"--home-dev-project--/2026-01-01T00-00-00-000Z_01a22eed-65d9-75ee-8217-1d219d6effff.jsonl": "secrets/session.jsonl",
		"--other--/s.jsonl": "secrets/session.jsonl",
	})
	planted := leakWindows(plantedValues(t))
	cs := connect(t, Options{Folders: []string{dir}})
	var answers []string
	record := func(res *mcp.CallToolResult) {
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, string(b))
	}
	answers = append(answers, cs.InitializeResult().Instructions)
	for _, args := range []map[string]any{
		{"pattern": "AKIA"}, {"pattern": "password", "ignore_case": true, "limit": 100},
		{"pattern": `[A-Za-z0-9+/]{30,}`, "regexp": true, "limit": 100}, {"pattern": "://", "limit": 100},
		{"pattern": "eyJ", "limit": 100}, {"pattern": "PRIVATE KEY", "limit": 100}, {"pattern": "ghp_", "limit": 100},
		{"pattern": "key", "ignore_case": true, "limit": 100}, {"pattern": "token", "ignore_case": true, "limit": 100},
	} {
		pageThrough(t, cs, "search_sessions", args, record)
	}
	pageThrough(t, cs, "list_sessions", map[string]any{"limit": 1}, record)
	for _, by := range []string{"day", "model", "provider", "project", "session"} {
		pageThrough(t, cs, "session_usage", map[string]any{"by": by}, record)
	}
	for _, ref := range []string{"latest", "01a22eed", "01a22eed-65d9-75ee-8217-1d219d6effff", filepath.Join(dir, "--other--/s.jsonl")} {
		readThrough(t, cs, map[string]any{"session": ref, "max_bytes": readMax}, record)
	}
	for _, m := range call[searchOut](t, cs, "search_sessions", map[string]any{"pattern": "AKIA", "limit": 5}).Matches {
		record(callRaw(t, cs, "read_session", map[string]any{"session": m.File, "entry": m.EntryID}))
	}
	record(callRaw(t, cs, "read_session", map[string]any{"session": "01a22eed-65d9"})) // ambiguous: the candidates
	if len(answers) < 50 {
		t.Fatalf("only %d answers", len(answers))
	}
	for _, a := range answers {
		assertNoLeak(t, a, planted)
	}
	if !strings.Contains(strings.Join(answers, ""), "[REDACTED:") {
		t.Fatal("no placeholder in any answer: were the secrets reached at all?")
	}
}

// pageThrough calls tool from the first page to the last (next_cursor).
func pageThrough(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, record func(*mcp.CallToolResult)) {
	t.Helper()
	for page := 0; ; page++ {
		res := callRaw(t, cs, tool, args)
		record(res)
		var next struct {
			NextCursor string `json:"next_cursor"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &next)
		if next.NextCursor == "" || page > 1000 {
			return
		}
		args["cursor"] = next.NextCursor
	}
}

// readThrough reads a session from the first page to the last.
func readThrough(t *testing.T, cs *mcp.ClientSession, args map[string]any, record func(*mcp.CallToolResult)) {
	t.Helper()
	for page := 0; page < 1000; page++ {
		res := callRaw(t, cs, "read_session", args)
		record(res)
		var out readOut
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		if out.NextOffset == nil {
			return
		}
		args["offset"] = *out.NextOffset
	}
}

// plantedValues reads the planted secrets of the corpus's manifest.
func plantedValues(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(testref.Corpus("secrets/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Planted []struct{ Value string } `json:"planted"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, p := range m.Planted {
		values = append(values, p.Value)
	}
	if len(values) < 100 {
		t.Fatalf("%d planted values", len(values))
	}
	return values
}

// assertNoLeak fails when text holds leakWindow bytes of a planted value
// (JSON escapes undone: / is written \/ in no answer, but \u0026 may be).
func assertNoLeak(t *testing.T, text string, windows map[string]string) {
	t.Helper()
	text = unescapeJSON(text)
	for i := 0; i+leakWindow <= len(text); i++ {
		if v, ok := windows[text[i:i+leakWindow]]; ok {
			t.Fatalf("an answer holds %q of the planted %q: …%s…", text[i:i+leakWindow], v, text[max(0, i-80):min(len(text), i+80)])
		}
	}
}

// leakWindows maps every leakWindow bytes of a planted value to the value.
func leakWindows(planted []string) map[string]string {
	windows := map[string]string{}
	for _, v := range planted {
		for i := 0; i+leakWindow <= len(v); i++ {
			windows[v[i:i+leakWindow]] = v
		}
	}
	return windows
}

// unescapeJSON undoes the escapes an answer's JSON may hold, twice nested.
func unescapeJSON(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\u0026`, "&", `\u003c`, "<", `\u003e`, ">", `\n`, "\n", `\/`, "/")
	return r.Replace(r.Replace(s))
}
