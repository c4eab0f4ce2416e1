package gen

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
)

// shapes are the option sets every structural test runs on.
var shapes = map[string]Options{
	"linear":     {Seed: 1, Entries: 600},
	"branched":   {Seed: 2, Entries: 800, BranchEvery: 25, CompactionEvery: 60},
	"tool-heavy": {Seed: 3, Entries: 800, ToolHeavy: true, Unicode: true, BranchEvery: 40, CompactionEvery: 90},
	"by-size":    {Seed: 4, TargetBytes: 300 << 10, BranchEvery: 30, CompactionEvery: 50, Unicode: true},
	"tiny":       {Seed: 5, Entries: 4},
}

// generate writes a session to memory, failing the test on error.
func generate(t testing.TB, opts Options) ([]byte, Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := Write(&buf, opts)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes(), st
}

// entry holds the fields the checks read from a line.
type entry struct {
	Type             string  `json:"type"`
	ID               string  `json:"id"`
	ParentID         *string `json:"parentId"`
	Timestamp        string  `json:"timestamp"`
	TargetID         string  `json:"targetId"`
	FromID           string  `json:"fromId"`
	FirstKeptEntryID string  `json:"firstKeptEntryId"`
	Message          *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"toolCallId"`
	} `json:"message"`
}

// role is the message role of e, or "" for other entry types.
func (e entry) role() string {
	if e.Message == nil {
		return ""
	}
	return e.Message.Role
}

// toolCallIDs lists the ids of e's toolCall blocks.
func (e entry) toolCallIDs(t *testing.T) []string {
	if e.role() != "assistant" {
		return nil
	}
	var blocks []struct{ Type, ID string }
	if err := json.Unmarshal(e.Message.Content, &blocks); err != nil {
		t.Fatalf("entry %s: assistant content: %v", e.ID, err)
	}
	var ids []string
	for _, b := range blocks {
		if b.Type == "toolCall" {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

// parse splits data into the header and the entries, failing on any line that is not JSON.
func parse(t *testing.T, data []byte) (map[string]any, []entry) {
	t.Helper()
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatal("output does not end with a newline")
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	var hdr map[string]any
	if err := json.Unmarshal(lines[0], &hdr); err != nil {
		t.Fatalf("header: %v", err)
	}
	entries := make([]entry, 0, len(lines)-1)
	for i, line := range lines[1:] {
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %d: %v: %s", i+2, err, line)
		}
		entries = append(entries, e)
	}
	return hdr, entries
}

func TestDeterministic(t *testing.T) {
	opts := shapes["branched"]
	a, _ := generate(t, opts)
	b, _ := generate(t, opts)
	if !bytes.Equal(a, b) {
		t.Fatal("same options gave different output")
	}
	opts.Seed++
	if c, _ := generate(t, opts); bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same output")
	}
}

func TestHeader(t *testing.T) {
	data, _ := generate(t, Options{Seed: 9, Entries: 10, Cwd: "/srv/app"})
	hdr, _ := parse(t, data)
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if hdr["type"] != "session" || hdr["version"] != 3.0 || hdr["cwd"] != "/srv/app" {
		t.Errorf("header = %v", hdr)
	}
	if id, _ := hdr["id"].(string); !uuid.MatchString(id) {
		t.Errorf("header id %q is not a UUIDv7", id)
	} else if id != "019b76da-a800-7d17-9c79-ccc4d5625d98" {
		t.Errorf("header id %s, want 019b76da-a800-7d17-9c79-ccc4d5625d98: seed 9 must keep giving the same file", id)
	}
	if first := string(data[:bytes.IndexByte(data, ',')]); first != `{"type":"session"` {
		t.Errorf("header starts %q", first)
	}
}

func TestStructure(t *testing.T) {
	for name, opts := range shapes {
		t.Run(name, func(t *testing.T) {
			data, st := generate(t, opts)
			_, entries := parse(t, data)
			byID := checkIDs(t, entries)
			checkToolResults(t, entries, byID)
			checkReferences(t, entries, byID)
			checkStats(t, data, entries, st)
		})
	}
}

// checkIDs checks ids, parents and timestamps, and returns the entries by id.
func checkIDs(t *testing.T, entries []entry) map[string]entry {
	t.Helper()
	hex8 := regexp.MustCompile(`^[0-9a-f]{8}$`)
	byID := make(map[string]entry, len(entries))
	prev := ""
	for i, e := range entries {
		if !hex8.MatchString(e.ID) {
			t.Fatalf("entry %d: id %q is not 8 lowercase hex characters", i, e.ID)
		}
		if _, dup := byID[e.ID]; dup {
			t.Fatalf("entry %d: duplicate id %s", i, e.ID)
		}
		if (e.ParentID == nil) != (i == 0) {
			t.Fatalf("entry %d: parentId %v (only the first entry is a root)", i, e.ParentID)
		}
		if e.ParentID != nil {
			if _, ok := byID[*e.ParentID]; !ok {
				t.Fatalf("entry %d: parentId %s is not an earlier id", i, *e.ParentID)
			}
		}
		if e.Timestamp <= prev {
			t.Fatalf("entry %d: timestamp %s does not follow %s", i, e.Timestamp, prev)
		}
		prev = e.Timestamp
		byID[e.ID] = e
	}
	return byID
}

// checkToolResults checks that every tool call is answered once, by a result that follows the
// call on its own path.
func checkToolResults(t *testing.T, entries []entry, byID map[string]entry) {
	t.Helper()
	calls := map[string]string{} // tool call id → assistant entry id
	answered := map[string]bool{}
	for _, e := range entries {
		for _, id := range e.toolCallIDs(t) {
			calls[id] = e.ID
		}
		if e.role() != "toolResult" {
			continue
		}
		call := e.Message.ToolCallID
		owner, ok := calls[call]
		if !ok || answered[call] {
			t.Fatalf("entry %s: result for unknown or answered call %s", e.ID, call)
		}
		answered[call] = true
		if !isAncestor(byID, owner, e.ID) {
			t.Fatalf("entry %s: result is not on the path of call %s", e.ID, call)
		}
	}
	if len(answered) != len(calls) {
		t.Fatalf("%d tool calls, %d answered", len(calls), len(answered))
	}
}

// checkReferences checks the ids that compactions, branch summaries, labels and context edits
// point at.
func checkReferences(t *testing.T, entries []entry, byID map[string]entry) {
	t.Helper()
	for _, e := range entries {
		switch e.Type {
		case "compaction":
			kept, ok := byID[e.FirstKeptEntryID]
			if !ok || (kept.role() != "user" && kept.role() != "assistant") || !isAncestor(byID, kept.ID, e.ID) {
				t.Fatalf("compaction %s: firstKeptEntryId %s is not a user/assistant message on its path", e.ID, e.FirstKeptEntryID)
			}
		case "context_edit":
			if !isAncestor(byID, e.TargetID, e.ID) {
				t.Fatalf("context_edit %s: target %s is not on its path", e.ID, e.TargetID)
			}
		case "label":
			if _, ok := byID[e.TargetID]; !ok {
				t.Fatalf("label %s: unknown target %s", e.ID, e.TargetID)
			}
		case "branch_summary":
			if _, ok := byID[e.FromID]; !ok {
				t.Fatalf("branch_summary %s: unknown fromId %s", e.ID, e.FromID)
			}
		}
	}
}

// checkStats compares the reported stats with the file.
func checkStats(t *testing.T, data []byte, entries []entry, st Stats) {
	t.Helper()
	parents := map[string]bool{}
	for _, e := range entries {
		if e.ParentID != nil {
			parents[*e.ParentID] = true
		}
	}
	leaves := int64(0)
	for _, e := range entries {
		if !parents[e.ID] {
			leaves++
		}
	}
	if st.Entries != int64(len(entries)) || st.Bytes != int64(len(data)) || st.Leaves != leaves {
		t.Errorf("stats %+v; file has %d entries, %d bytes, %d leaves", st, len(entries), len(data), leaves)
	}
}

// isAncestor reports whether id is desc or one of its ancestors.
func isAncestor(byID map[string]entry, id, desc string) bool {
	for cur, ok := byID[desc]; ok; {
		if cur.ID == id {
			return true
		}
		if cur.ParentID == nil {
			return false
		}
		cur, ok = byID[*cur.ParentID]
	}
	return false
}

func TestShapes(t *testing.T) {
	data, st := generate(t, shapes["branched"])
	if st.Branches == 0 || st.Compactions == 0 || st.ToolCalls == 0 {
		t.Errorf("branched session has %+v", st)
	}
	for _, typ := range []string{"model_change", "thinking_level_change", "label", "session_info", "custom",
		"custom_message", "usage", "context_edit", "branch_summary", "compaction", `"role":"bashExecution"`} {
		if !bytes.Contains(data, []byte(typ)) {
			t.Errorf("branched session has no %s", typ)
		}
	}
	linear, st := generate(t, shapes["linear"])
	if st.Leaves != 1 || bytes.Contains(linear, []byte(`"type":"compaction"`)) {
		t.Errorf("linear session: %+v", st)
	}
	heavy, _ := generate(t, shapes["tool-heavy"])
	if n := bytes.Count(heavy, []byte(`"role":"toolResult"`)); n < 400 {
		t.Errorf("tool-heavy session has only %d of 800 entries as tool results", n)
	}
	if !bytes.Contains(heavy, []byte("数据")) && !bytes.Contains(heavy, []byte("🚀")) {
		t.Error("unicode session has no CJK or emoji")
	}
}

func TestTargetBytes(t *testing.T) {
	for _, target := range []int64{20 << 10, 100 << 10, 1 << 20} {
		for _, heavy := range []bool{false, true} {
			opts := Options{Seed: uint64(target), TargetBytes: target, ToolHeavy: heavy, ToolResultBytes: 4000, BranchEvery: 20}
			data, _ := generate(t, opts)
			last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
			if int64(len(data)) < target || int64(last) >= target {
				t.Errorf("target %d (heavy %v): %d bytes, last line starts at %d", target, heavy, len(data), last)
			}
		}
	}
}

func TestEntries(t *testing.T) {
	for _, n := range []int{3, 50, 777} {
		_, st := generate(t, Options{Seed: 7, Entries: n, ToolHeavy: true})
		if st.Entries != int64(n) {
			t.Errorf("Entries %d: wrote %d", n, st.Entries)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	for _, opts := range []Options{{}, {Entries: -1}, {Entries: 5, BranchEvery: -2}} {
		if _, err := Write(&bytes.Buffer{}, opts); err == nil {
			t.Errorf("Write(%+v) succeeded", opts)
		}
	}
}

// TestPiReference runs Pi's own code on generated sessions. It needs node and the reference
// runner (scripts/pi-ref, or $PI_REF), so it only runs with PITOOL_PIREF=1.
func TestPiReference(t *testing.T) {
	if os.Getenv("PITOOL_PIREF") != "1" {
		t.Skip("set PITOOL_PIREF=1 to run Pi's reference on generated sessions")
	}
	ref := testref.PiRef()
	for name, opts := range map[string]Options{
		"mixed":      {Seed: 11, Entries: 400, BranchEvery: 15, CompactionEvery: 40, Unicode: true},
		"tool-heavy": {Seed: 12, Entries: 400, BranchEvery: 20, CompactionEvery: 50, ToolHeavy: true, Unicode: true},
	} {
		t.Run(name, func(t *testing.T) {
			data, st := generate(t, opts)
			file := filepath.Join(t.TempDir(), name+".jsonl")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			checkRefContext(t, ref, file)
			checkRefProvider(t, ref, file)
			checkRefPrepare(t, ref, file, lastAnswer(t, data))
			checkRefTree(t, ref, file, st)
			checkStringifyFixedPoint(t, file)
		})
	}
}

// runRef runs the reference subcommand and decodes its JSON output into v.
func runRef(t *testing.T, ref string, v any, args ...string) {
	t.Helper()
	out, err := exec.Command(ref, args...).Output()
	if err != nil {
		t.Fatalf("pi-ref %s: %v", strings.Join(args, " "), err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("pi-ref %s: output: %v", args[0], err)
	}
}

// checkRefContext checks that Pi builds a context that starts with the system message or a
// compaction's, and includes a compaction summary when the path has one.
func checkRefContext(t *testing.T, ref, file string) {
	var ctx struct {
		Messages []struct{ Role string } `json:"messages"`
	}
	runRef(t, ref, &ctx, "context", file)
	if len(ctx.Messages) < 2 || ctx.Messages[0].Role != "system" {
		t.Fatalf("pi-ref context: %d messages, first %+v", len(ctx.Messages), ctx.Messages)
	}
}

// checkRefProvider checks that no tool call on the active path lacks its result: Pi would fill
// one in as "No result provided".
func checkRefProvider(t *testing.T, ref, file string) {
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	runRef(t, ref, &msgs, "provider", file)
	for _, m := range msgs {
		if m.Role == "toolResult" && bytes.Contains(m.Content, []byte("No result provided")) {
			t.Fatal("pi-ref provider: a tool call on the active path has no result")
		}
	}
}

// checkRefPrepare checks that Pi finds something to compact on the path to the last final
// answer (the file itself may end right after a compaction or a branch, with nothing to do).
func checkRefPrepare(t *testing.T, ref, file string, leaf string) {
	var prep *struct {
		FirstKeptEntryID    string `json:"firstKeptEntryId"`
		MessagesToSummarize int    `json:"messagesToSummarize"`
		TurnPrefixMessages  int    `json:"turnPrefixMessages"`
	}
	runRef(t, ref, &prep, "prepare", file, "--leaf", leaf, "--keep-recent-tokens", "2000")
	if prep == nil || prep.FirstKeptEntryID == "" || prep.MessagesToSummarize+prep.TurnPrefixMessages == 0 {
		t.Fatalf("pi-ref prepare --leaf %s: %+v", leaf, prep)
	}
}

// lastAnswer returns the id of the last assistant message that ends a turn.
func lastAnswer(t *testing.T, data []byte) string {
	_, entries := parse(t, data)
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.role() == "assistant" && len(e.toolCallIDs(t)) == 0 {
			return e.ID
		}
	}
	t.Fatal("no final answer in the session")
	return ""
}

// checkRefTree checks that Pi sees as many leaves as Write reported.
func checkRefTree(t *testing.T, ref, file string, st Stats) {
	var tree struct {
		Rows []struct {
			Children []string `json:"children"`
		} `json:"rows"`
	}
	runRef(t, ref, &tree, "tree", file)
	leaves := int64(0)
	for _, r := range tree.Rows {
		if len(r.Children) == 0 {
			leaves++
		}
	}
	if int64(len(tree.Rows)) != st.Entries || leaves != st.Leaves {
		t.Fatalf("pi-ref tree: %d rows, %d leaves; Write reported %+v", len(tree.Rows), leaves, st)
	}
}

// checkStringifyFixedPoint checks with node that every line equals JSON.stringify(JSON.parse(line)).
func checkStringifyFixedPoint(t *testing.T, file string) {
	const script = `const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
let bad = 0;
lines.forEach((l, i) => { if (JSON.stringify(JSON.parse(l)) !== l) { bad++; if (bad < 3) console.log("line " + (i + 1)); } });
console.log(bad ? "bad " + bad : "ok " + lines.length);`
	out, err := exec.Command("node", "-e", script, file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok ") {
		t.Fatalf("JSON.stringify round trip: %v: %s", err, out)
	}
}

func BenchmarkWrite(b *testing.B) {
	opts := Options{Seed: 1, TargetBytes: 8 << 20, BranchEvery: 50, CompactionEvery: 200, Unicode: true}
	b.SetBytes(opts.TargetBytes)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Write(io.Discard, opts); err != nil {
			b.Fatal(err)
		}
	}
}
