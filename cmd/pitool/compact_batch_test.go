package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// writeFleet writes n generated sessions of varied length into a new folder
// and returns it with the original bytes of each file.
func writeFleet(t *testing.T, n int) (string, map[string][]byte) {
	dir := t.TempDir()
	orig := map[string][]byte{}
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		opts := gen.Options{Seed: uint64(i + 1), Entries: 8 + i%60, ToolResultBytes: 400, ToolHeavy: i%7 == 0}
		if _, err := gen.Write(&buf, opts); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("p%d", i%10), fmt.Sprintf("s%04d.jsonl", i))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		orig[path] = buf.Bytes()
	}
	return dir, orig
}

func runPitool(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(ctx, append([]string{"pitool"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// plannedStatus runs compact --plan --json and returns each file's status.
func plannedStatus(t *testing.T, args ...string) map[string]string {
	code, out, errOut := runPitool(context.Background(), append([]string{"compact", "--plan", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	status := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var o struct{ File, Status string }
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		if o.File != "" {
			status[o.File] = o.Status
		}
	}
	return status
}

// checkAppended checks that file is orig plus exactly one compaction entry
// whose parent is orig's last entry, and returns false when file == orig.
func checkAppended(t *testing.T, file string, orig []byte) bool {
	now, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(now, orig) {
		return false
	}
	added := now[len(orig):]
	if !bytes.HasPrefix(now, orig) || bytes.Count(added, []byte("\n")) != 1 || !bytes.HasSuffix(added, []byte("\n")) {
		t.Fatalf("%s: not the original plus one complete line: %q", file, added)
	}
	entry, err := jsonl.ParseObject(bytes.TrimSpace(added))
	lines := bytes.Split(bytes.TrimSpace(orig), []byte("\n"))
	last, err2 := jsonl.ParseObject(lines[len(lines)-1])
	if err != nil || err2 != nil || entry.String("type") != "compaction" || entry.String("parentId") != last.String("id") {
		t.Fatalf("%s: appended %q (%v, %v)", file, added, err, err2)
	}
	return true
}

var fleetFlags = []string{"--min-idle", "0", "--context-window", "12000", "--reserve-tokens", "2000", "--keep-recent-tokens", "2000"}

func TestCompactThousandSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 sessions")
	}
	dir, orig := writeFleet(t, 1000)
	status := plannedStatus(t, append(fleetFlags, dir)...)
	code, _, errOut := runPitool(context.Background(), append(append([]string{"compact", "-j", "2", "--json"}, fleetFlags...), dir)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	due := 0
	for file, data := range orig {
		appended := checkAppended(t, file, data)
		if appended != (status[file] == "planned") {
			t.Errorf("%s: planned %q but appended=%v", file, status[file], appended)
		}
		if appended {
			due++
		}
	}
	t.Logf("%d of 1000 sessions were due and got one entry; the rest are byte-identical", due)
	if due < 100 || due > 900 {
		t.Errorf("%d of 1000 files due: the fleet does not exercise both cases", due)
	}
}

// slowCommand is a summarizer that leaves a marker in $MARKS when it starts,
// and is slow enough for an interrupt to land mid-run.
const slowCommand = `cat >/dev/null; mktemp -p "$MARKS" >/dev/null; sleep 0.05; echo '## Goal'`

// cancelAfterMarks cancels once n summaries have started. A file takes at
// most two (history and turn prefix), so with two workers the fifth start
// means one worker completely finished a file.
func cancelAfterMarks(dir string, n int, cancel func()) {
	for {
		if marks, _ := os.ReadDir(dir); len(marks) >= n {
			cancel()
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestInterruptLeavesNoPartialLine(t *testing.T) {
	dir, orig := writeFleet(t, 60)
	marks := t.TempDir()
	t.Setenv("MARKS", marks)
	ctx, cancel := context.WithCancel(context.Background())
	go cancelAfterMarks(marks, 5, cancel)
	args := append([]string{"compact", "-j", "2", "--even-if-not-due", "--summarizer", "command", "--command", slowCommand}, fleetFlags...)
	code, _, _ := runPitool(ctx, append(args, dir)...)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d", code, exitInterrupted)
	}
	done := 0
	for file, data := range orig {
		if checkAppended(t, file, data) {
			done++
		}
	}
	t.Logf("interrupted after %d of %d files", done, len(orig))
	if done == 0 || done == len(orig) {
		t.Errorf("%d of %d files compacted: the interrupt did not land mid-run", done, len(orig))
	}
}
