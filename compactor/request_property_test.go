package compactor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// TestCompactNeverWorsensRequest compacts generated sessions broken at their
// active leaf (a compaction keeping from any entry, an edit dropping an
// assistant message, a turn with an excluded shell command between a call
// and its result) with budgets from tiny to large. Every compaction written
// leaves the request with no refused tool result that it took before; every
// one refused for the request leaves the file as it was. Each verdict must
// turn up, so the test cannot pass by never reaching one.
func TestCompactNeverWorsensRequest(t *testing.T) {
	seen := map[string]int{}
	for seed := range uint64(40) {
		session := damagedSession(t, seed)
		for _, keep := range []int{1, 60, 400, 3000} {
			file := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(file, session, 0o644); err != nil {
				t.Fatal(err)
			}
			before := refusedResults(t, file)
			opts := fixedOptions("cmp00099", time.Unix(0, 0), stub{})
			opts.KeepRecentTokens = keep
			out := CompactFile(context.Background(), file, opts)
			if out.Request == nil {
				continue
			}
			seen[strings.Fields(out.Request.String())[0]]++
			after, _ := os.ReadFile(file)
			switch {
			case out.Request.Worse():
				if out.Status != Skipped || !bytes.Equal(after, session) {
					t.Fatalf("seed %d keep %d: a compaction that breaks the request was %s", seed, keep, out.Status)
				}
			case out.Status != Compacted:
				t.Fatalf("seed %d keep %d: %s %s", seed, keep, out.Status, out.Reason)
			default:
				for id := range refusedResults(t, file) {
					if !before[id] {
						t.Fatalf("seed %d keep %d: the compaction made result %s refused (%s)", seed, keep, id, out.Request)
					}
				}
			}
		}
	}
	for _, verdict := range []string{"valid", "fixes", "leaves", "would"} {
		if seen[verdict] == 0 {
			t.Errorf("no compaction was judged %q (seen %v)", verdict, seen)
		}
	}
}

// refusedResults is the set of tool result ids the request at a file's
// active leaf has a provider refuse.
func refusedResults(t *testing.T, file string) map[string]bool {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	problems, err := ix.CheckRequest(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, p := range problems {
		ids[p.Result.ID] = true
	}
	return ids
}

// damagedSession is a generated session with one random kind of damage
// appended at its active leaf.
func damagedSession(t *testing.T, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Options{Seed: seed, Entries: 60, ToolHeavy: seed%2 == 0, ToolResultBytes: 200}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "g.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	path, _ := ix.Path(ix.ActiveLeaf())
	rng := rand.New(rand.NewPCG(seed, 5))
	pick := func(role string) string {
		for range 50 {
			if i := path[rng.IntN(len(path))]; role == "" || ix.Role(i) == role {
				return ix.ID(i)
			}
		}
		return ix.ID(path[0])
	}
	parent := ix.ID(ix.ActiveLeaf())
	line := func(id string, fields ...any) {
		kv := append([]any{"id", id, "parentId", parent, "timestamp", "2026-06-01T00:00:00.000Z"}, fields...)
		buf.WriteString("{")
		for k := 0; k < len(kv); k += 2 {
			key, _ := json.Marshal(kv[k])
			val, _ := json.Marshal(kv[k+1])
			if k > 0 {
				buf.WriteString(",")
			}
			fmt.Fprintf(&buf, "%s:%s", key, val)
		}
		buf.WriteString("}\n")
		parent = id
	}
	switch seed % 3 {
	case 0:
		line("dmg00001", "type", "compaction", "summary", "Earlier.", "firstKeptEntryId", pick(jsonl.RoleToolResult), "tokensBefore", 10, "fromHook", true)
	case 1:
		line("dmg00001", "type", "context_edit", "targetId", pick(jsonl.RoleAssistant), "replacement", nil)
	}
	call := map[string]any{"type": "toolCall", "id": "toolu_dmg", "name": "read", "arguments": map[string]any{"path": "a.go"}}
	line("dmg00002", "type", "message", "message", map[string]any{"role": "assistant", "content": []any{call},
		"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "stopReason": "toolUse", "timestamp": 0})
	line("dmg00003", "type", "message", "message", map[string]any{"role": "bashExecution", "command": "cat big.log",
		"output": strings.Repeat("log line\n", 40+rng.IntN(400)), "exitCode": 0, "cancelled": false, "truncated": false,
		"excludeFromContext": true, "timestamp": 0})
	line("dmg00004", "type", "message", "message", map[string]any{"role": "toolResult", "toolCallId": "toolu_dmg", "toolName": "read",
		"content": []any{map[string]any{"type": "text", "text": "package a"}}, "isError": false, "timestamp": 0})
	line("dmg00005", "type", "message", "message", map[string]any{"role": "user", "content": "Go on.", "timestamp": 0})
	return buf.Bytes()
}
