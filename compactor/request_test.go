package compactor

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// requestSession is a file of testdata/request (see its README).
func requestSession(name string) string { return "../testdata/request/" + name }

// TestCompactNeverOrphansAResult compacts a valid session where Pi's own cut
// point rule (pi-ref prepare, golden) cuts at an excluded bashExecution that
// sits between a tool call and its result: written, that compaction would
// summarise the call and keep the result. CompactFile refuses it, in the plan
// and for real, and leaves the file as it was.
func TestCompactNeverOrphansAResult(t *testing.T) {
	src := requestSession("excluded-bash-before-result.jsonl")
	golden := "testdata/prepare/excluded-bash-before-result.k100.json"
	if *testref.Update {
		writeFile(t, golden, piRef(t, "prepare", src, "--keep-recent-tokens", "100"))
	}
	prepared, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(prepared, []byte(`"firstKeptEntryId":"b0000003"`)) {
		t.Fatalf("pi-ref no longer cuts at the bashExecution: %s", prepared)
	}
	for _, plan := range []bool{true, false} {
		file := copyToTemp(t, src)
		before, _ := os.ReadFile(file)
		opts := fixedOptions("c0000099", time.Unix(0, 0), stub{})
		opts.KeepRecentTokens, opts.Plan = 100, plan
		out := CompactFile(context.Background(), file, opts)
		if out.Status != Skipped || out.Prep.FirstKeptEntryID != "b0000003" || out.Request == nil ||
			len(out.Request.Added) != 1 || out.Request.Added[0].Result.ID != "r0000004" {
			t.Fatalf("plan %v: %s %q %+v", plan, out.Status, out.Reason, out.Request)
		}
		if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
			t.Errorf("plan %v: the file changed", plan)
		}
	}
}

// TestCompactRequestVerdict compacts sessions at cuts that fix an orphan,
// leave it, or find the request valid, checks what the plan says, and that
// the request at the new compaction is what it said.
func TestCompactRequestVerdict(t *testing.T) {
	cases := []struct {
		name   string
		keep   int
		says   string
		refuse int // refused tool results at the compaction once written
	}{
		{"edit-dropped-call.jsonl", 10, "fixes 1 orphaned tool result", 0},
		{"edit-dropped-call.jsonl", 35, "leaves 1 orphaned tool result as it was", 1},
		{"compaction-kept-result.jsonl", 30, "fixes 1 orphaned tool result", 0},
		{"answered-twice.jsonl", 5, "fixes 1 orphaned tool result", 0},
		{"valid.jsonl", 30, "valid", 0},
	}
	for _, tc := range cases {
		file := copyToTemp(t, requestSession(tc.name))
		opts := fixedOptions("c0000099", time.Unix(0, 0), stub{})
		opts.KeepRecentTokens = tc.keep
		out := CompactFile(context.Background(), file, opts)
		if out.Status != Compacted || out.Request == nil || out.Request.String() != tc.says {
			t.Errorf("%s k=%d: %s %q, request %v", tc.name, tc.keep, out.Status, out.Reason, out.Request)
			continue
		}
		ix, closeFn, err := jsonl.IndexFile(file, nil)
		if err != nil {
			t.Fatal(err)
		}
		problems, err := ix.CheckRequest(ix.ActiveLeaf())
		closeFn()
		if err != nil || len(problems) != tc.refuse {
			t.Errorf("%s k=%d: after compacting, the request has %v %v, want %d", tc.name, tc.keep, problems, err, tc.refuse)
		}
	}
}
