package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/testref"
)

// Crash tests: every writing command runs as the real binary on sessions of
// a few MB and is killed (SIGKILL or SIGINT) after a seeded random delay
// spread over its run time, or, for one trial in three of the commands that
// go through safefile's commit or append, while it waits in the commit
// window (PITOOL_TEST_PAUSE_BEFORE_COMMIT). After each kill every file must
// be in a state the write protocol allows (crashRule), and a run to the end
// must then finish the work and leave no temporary file behind.
//
// The default run kills each command defaultKills times on sessions of
// 300 messages (0.7 MB); the long suite (suite_test.go) kills each 30 times,
// or PITOOL_STRESS_TRIALS=N times, on sessions of 2,000 messages (4.8 MB).

// defaultKills is how many times the default run kills each command.
const defaultKills = 2

// crashKills is how many times each command is killed.
func crashKills() int { return stressTrials(defaultKills) }

// crashEntries is the number of messages of a generated session.
var crashEntries = map[bool]int{false: 300, true: 2000}[longSuite()]

// ruleKind names the states a file may be found in after a kill.
type ruleKind int

const (
	// unchanged: an input the command never writes; byte-identical.
	unchanged ruleKind = iota
	// appended: the bytes it had, or those bytes and the one complete
	// compaction line an uninterrupted run appends.
	appended
	// inPlace: the old bytes (with no backup, or a backup that holds them:
	// killed between the link and the rename), or the complete new content
	// of an uninterrupted run with the old bytes as FILE.bak. When that run
	// also compacted, the repaired content without the compaction line too.
	inPlace
	// archived: the old bytes, perhaps with a complete FILE.zst beside
	// them (killed before the removal), or FILE.zst alone holding them.
	archivedAway
	// output: absent, or the complete output of an uninterrupted run.
	output
	// quarantine: an output written around an in-place commit (repair's
	// quarantine, linked after the rename): absent, or complete. A kill
	// between the rename and the link leaves it absent for good; its bytes
	// are then in FILE.bak, which inPlace checks.
	quarantine
	// report: absent, or one complete JSON document.
	report
	// restored: an archive unarchive restores: its bytes, or gone once the
	// plain file beside it is complete.
	restored
)

// crashRule is one file a command may write.
type crashRule struct {
	rel  string // path in the trial folder
	kind ruleKind
}

// crashCase is one writing command.
type crashCase struct {
	name  string
	setup func(t *testing.T, dir string)
	args  func(dir string) []string
	rules []crashRule
	pause bool // goes through Commit or AppendLine, where the pause hook waits
	// needs, when set, is the input a run needs: once it is gone the
	// work is done, and the case is not run again.
	needs string
	// rerun: the case writes -o, and a second run over the complete output
	// of a first (what a kill that came after the write leaves) must succeed
	// as a user expects: the output is a copy of the same input, which -o
	// replaces (outputRule; issue 27, item 2), not another session it keeps.
	rerun bool
}

var crashCases = []crashCase{
	{name: "compact", pause: true,
		setup: func(t *testing.T, dir string) {
			for _, f := range []string{"s1", "s2", "s3"} {
				writeCrashSession(t, filepath.Join(dir, "sessions", f+".jsonl"), "")
			}
		},
		args: func(dir string) []string {
			return []string{"compact", "-j", "2", "--min-idle", "0", "--context-window", "50000", "--keep-recent-tokens", "2000", filepath.Join(dir, "sessions")}
		},
		rules: []crashRule{{"sessions/s1.jsonl", appended}, {"sessions/s2.jsonl", appended}, {"sessions/s3.jsonl", appended}}},
	{name: "repair", pause: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), tornLine) },
		args: func(dir string) []string {
			return []string{"repair", "--in-place", "--force", filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", inPlace}, {"s.jsonl.quarantine", quarantine}}},
	{name: "redact", pause: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") },
		args: func(dir string) []string {
			return []string{"redact", "--in-place", "--force", "--backup", "--secret", "dolor", "--salt", "crash", filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", inPlace}}},
	{name: "nightly", pause: true,
		setup: func(t *testing.T, dir string) {
			old := filepath.Join(dir, "sessions", "p", "old.jsonl")
			writeCrashSession(t, old, "")
			past := time.Now().Add(-48 * time.Hour)
			if err := os.Chtimes(old, past, past); err != nil {
				t.Fatal(err)
			}
			writeCrashSession(t, filepath.Join(dir, "sessions", "p", "due.jsonl"), "")
			writeCrashSession(t, filepath.Join(dir, "sessions", "p", "torn.jsonl"), tornLine)
		},
		args: func(dir string) []string {
			return []string{"nightly", "-j", "2", "--min-idle", "0", "--archive-after", "1d", "--context-window", "50000", "--keep-recent-tokens", "2000",
				"--report", filepath.Join(dir, "report.json"), filepath.Join(dir, "sessions")}
		},
		rules: []crashRule{{"sessions/p/old.jsonl", archivedAway}, {"sessions/p/due.jsonl", appended},
			{"sessions/p/torn.jsonl", inPlace}, {"sessions/p/torn.jsonl.quarantine", quarantine}, {"report.json", report}}},
	{name: "unarchive",
		setup: func(t *testing.T, dir string) {
			plain := filepath.Join(dir, "s.jsonl")
			writeCrashSession(t, plain, "")
			archiveForTest(t, plain)
		},
		args:  func(dir string) []string { return []string{"unarchive", filepath.Join(dir, "s.jsonl.zst")} },
		needs: "s.jsonl.zst",
		rules: []crashRule{{"s.jsonl.zst", restored}, {"s.jsonl", output}}},
	{name: "clone", rerun: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") },
		args: func(dir string) []string {
			return []string{"clone", "-o", filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", unchanged}, {"out.jsonl", output}}},
	{name: "fork", rerun: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") },
		args: func(dir string) []string {
			return []string{"fork", "--at", crashID(crashEntries / 2), "-o", filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", unchanged}, {"out.jsonl", output}}},
	{name: "export-html", rerun: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") },
		args: func(dir string) []string {
			return []string{"export", "html", "-o", filepath.Join(dir, "out.html"), filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", unchanged}, {"out.html", output}}},
	{name: "export-md", rerun: true,
		setup: func(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") },
		args: func(dir string) []string {
			return []string{"export", "md", "-o", filepath.Join(dir, "out.md"), filepath.Join(dir, "s.jsonl")}
		},
		rules: []crashRule{{"s.jsonl", unchanged}, {"out.md", output}}},
}

// tornLine is a last line cut short by a crash: repair moves it to a
// quarantine file.
const tornLine = `{"type":"message","id":"torn0001","parentId":"a00003e7","timestamp":"2026-01-01T01:00:00.000Z","message":{"role":"user","content":"cut sh`

func crashID(i int) string { return fmt.Sprintf("%08x", 0xa0000000+i) }

// writeCrashSession writes a linear session of crashEntries user and
// assistant messages of about 2.4 KB each (no usage: the context is
// estimated, about 600,000 tokens, so compaction is due), then extra.
func writeCrashSession(t *testing.T, path, extra string) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"0194a000-0000-7000-8000-00000000c0de","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/dev/project"}` + "\n")
	words := strings.Repeat("lorem ipsum dolor sit amet ", 90)
	parent := "null"
	for i := range crashEntries {
		ts := fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", (i/60)%60, i%60)
		msg := fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"question %d: %s"}],"timestamp":%d}`, i, words, 1767225600000+i*1000)
		if i%2 == 1 {
			msg = fmt.Sprintf(`{"role":"assistant","content":[{"type":"text","text":"answer %d: %s"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-x","stopReason":"stop","timestamp":%d}`, i, words, 1767225600000+i*1000)
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":%s}`+"\n", crashID(i), parent, ts, msg)
		parent = `"` + crashID(i) + `"`
	}
	b.WriteString(extra)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCrashLeavesEveryFileWhole kills every writing command at random
// moments and checks what it leaves (see the comment at the top of this file).
func TestCrashLeavesEveryFileWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and kills runs on sessions of a few MB")
	}
	exe := pitoolExe(t)
	kills := crashKills()
	for ci, c := range crashCases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			ref := crashReference(t, exe, c)
			rng := rand.New(rand.NewPCG(11, uint64(ci)))
			var hit, done int
			// Runs whose signal came after they had finished do not count:
			// each command is killed mid-run kills times (within 3x the runs).
			// The delays spread over the uninterrupted run's time, narrowed
			// after each signal that came too late (a loaded machine makes
			// one run slow) and widened again after each that did not.
			spread := ref.took
			for k := 0; hit < kills && k < 3*kills; k++ {
				dir := t.TempDir()
				c.setup(t, dir)
				orig := treeFiles(t, dir)
				paused := c.pause && k%3 == 0
				sig := []os.Signal{syscall.SIGKILL, os.Interrupt}[k%2]
				delay := time.Duration(rng.Int64N(int64(spread)))
				if crashRun(t, exe, c, dir, sig, delay, paused) {
					done, spread = done+1, max(spread*2/3, time.Millisecond)
				} else {
					hit, spread = hit+1, min(spread*5/4, ref.took)
				}
				where := fmt.Sprintf("kill %d (%v after %v, paused %v)", k, sig, delay.Round(time.Millisecond), paused)
				checkCrashState(t, where, dir, c.rules, orig, ref)
				if _, err := os.Stat(filepath.Join(dir, c.needs)); c.needs == "" || err == nil {
					pitool(t, exe, c.args(dir)...)
				}
				checkFinished(t, where+", then run again", dir, c.rules, orig, ref)
			}
			if hit < kills {
				t.Errorf("%s: only %d of %d runs were killed before they finished", c.name, hit, hit+done)
			}
			t.Logf("%s: %d kills mid-run (%d more signals came after the end), uninterrupted run %v, %v in all",
				c.name, hit, done, ref.took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
}

// crashRef is what an uninterrupted run of a case leaves.
type crashRef struct {
	dir   string
	files map[string][]byte // every file of the folder after the run, normalized
	took  time.Duration
}

// crashReference runs the case once without interruption and checks that
// what it leaves fits its rules.
func crashReference(t *testing.T, exe string, c crashCase) crashRef {
	t.Helper()
	dir := t.TempDir()
	c.setup(t, dir)
	orig := treeFiles(t, dir)
	start := time.Now()
	pitool(t, exe, c.args(dir)...)
	ref := crashRef{dir: dir, took: time.Since(start)}
	ref.files = treeFiles(t, dir)
	for rel, b := range ref.files {
		ref.files[rel] = normalize(b, dir)
	}
	checkFinished(t, "uninterrupted run", dir, c.rules, orig, ref)
	if c.rerun {
		pitool(t, exe, c.args(dir)...)
		checkFinished(t, "uninterrupted run, then run again", dir, c.rules, orig, ref)
	}
	for _, r := range c.rules {
		if r.kind == appended {
			checkCompacted(t, filepath.Join(dir, r.rel), normalize(orig[r.rel], dir), ref.files[r.rel])
		}
	}
	return ref
}

// crashRun starts the case in dir and sends sig after delay, or once it is
// paused in its commit window; it reports whether the run had finished by
// then. A run that stops on SIGINT must exit 130 (or 0, when it had
// finished), and leave no temporary file.
func crashRun(t *testing.T, exe string, c crashCase, dir string, sig os.Signal, delay time.Duration, paused bool) bool {
	t.Helper()
	cmd := exec.Command(exe, c.args(dir)...)
	hook := filepath.Join(dir, ".hook")
	if paused {
		os.Mkdir(hook, 0o700)
		cmd.Env = append(os.Environ(), safefile.PauseEnv+"="+hook)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	var finished bool
	select {
	case err = <-exited:
		finished = true
	case <-waitCue(hook, delay, paused):
		cmd.Process.Signal(sig)
		if paused { // a SIGINT is seen once the hook lets the run go on
			os.WriteFile(filepath.Join(hook, "resume"), nil, 0o600)
		}
		err = <-exited
	}
	os.RemoveAll(hook)
	code := cmd.ProcessState.ExitCode()
	if finished && err != nil {
		t.Fatalf("pitool %v failed before the kill: %v\n%s", c.args(dir), err, stderr.String())
	}
	if !finished && sig == os.Interrupt {
		if code != 0 && code != exitInterrupted && !signalled(err, syscall.SIGINT) {
			t.Errorf("SIGINT: exit %v, want %d\n%s", err, exitInterrupted, stderr.String())
		}
		if left := tempFiles(t, dir); len(left) > 0 && code >= 0 {
			t.Errorf("SIGINT (exit %d) left temporary files %v", code, left)
		}
	}
	return finished || code == 0
}

// waitCue returns a channel that is closed after delay, or, when paused,
// once the pause hook's "paused" file exists (or after 20 s).
func waitCue(hook string, delay time.Duration, paused bool) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		if !paused {
			time.Sleep(delay)
			return
		}
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(hook, "paused")); err == nil {
				return
			}
		}
	}()
	return ch
}

func signalled(err error, sig syscall.Signal) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// checkCrashState checks every rule's file after a kill.
func checkCrashState(t *testing.T, where, dir string, rules []crashRule, orig map[string][]byte, ref crashRef) {
	t.Helper()
	now := treeFiles(t, dir)
	for _, r := range rules {
		if msg := ruleState(r, now, orig, ref, dir); msg != "" {
			t.Errorf("%s: %s: %s", where, r.rel, msg)
		}
	}
}

// checkFinished checks that a run to the end left what an uninterrupted run
// leaves, and no temporary file.
func checkFinished(t *testing.T, where, dir string, rules []crashRule, orig map[string][]byte, ref crashRef) {
	t.Helper()
	now := treeFiles(t, dir)
	for _, r := range rules {
		got, want := normalize(now[r.rel], dir), ref.files[r.rel]
		switch {
		case r.kind == archivedAway:
			if _, ok := now[r.rel]; ok || !zstdHolds(now[r.rel+".zst"], orig[r.rel]) {
				t.Errorf("%s: %s is not archived as %s.zst", where, r.rel, r.rel)
			}
		case r.kind == quarantine && !has(now, r.rel):
		case r.kind == restored:
			if has(now, r.rel) {
				t.Errorf("%s: %s is still there", where, r.rel)
			}
		case r.kind == report:
			if !json.Valid(now[r.rel]) {
				t.Errorf("%s: %s is not a JSON report", where, r.rel)
			}
		case !bytes.Equal(got, want):
			t.Errorf("%s: %s differs from an uninterrupted run's (%d bytes, want %d)", where, r.rel, len(got), len(want))
		}
		if r.kind == inPlace && !bytes.Equal(now[r.rel+".bak"], orig[r.rel]) {
			t.Errorf("%s: %s.bak does not hold the old bytes", where, r.rel)
		}
	}
	if left := tempFiles(t, dir); len(left) > 0 {
		t.Errorf("%s: temporary files left: %v", where, left)
	}
}

// ruleState says what is wrong with the rule's file, "" when nothing is.
func ruleState(r crashRule, now, orig map[string][]byte, ref crashRef, dir string) string {
	cur, exists := now[r.rel]
	old, want := orig[r.rel], ref.files[r.rel]
	norm := normalize(cur, dir)
	switch r.kind {
	case unchanged:
		if !bytes.Equal(cur, old) {
			return "an input changed"
		}
	case appended:
		if !bytes.Equal(cur, old) && !bytes.Equal(norm, want) {
			return fmt.Sprintf("neither its bytes nor its bytes and one compaction line (%d bytes, had %d)", len(cur), len(old))
		}
	case inPlace:
		return inPlaceState(cur, norm, old, want, now[r.rel+".bak"], has(now, r.rel+".bak"))
	case archivedAway:
		zst, zipped := now[r.rel+".zst"]
		switch {
		case exists && !bytes.Equal(cur, old):
			return "changed"
		case zipped && !zstdHolds(zst, old):
			return "its .zst does not decompress to its bytes"
		case !exists && !zipped:
			return "gone, and no archive"
		}
	case output, quarantine:
		if exists && !bytes.Equal(norm, want) {
			return fmt.Sprintf("incomplete output: %d bytes, an uninterrupted run writes %d", len(cur), len(want))
		}
	case restored:
		plain := strings.TrimSuffix(r.rel, ".zst")
		if exists && !bytes.Equal(cur, old) || !exists && !bytes.Equal(normalize(now[plain], dir), ref.files[plain]) {
			return "neither the archive's bytes nor gone with its plain file complete"
		}
	case report:
		if exists && !json.Valid(cur) {
			return fmt.Sprintf("a report of %d bytes that is not one JSON document", len(cur))
		}
	}
	return ""
}

// inPlaceState checks an in-place file and its backup (see inPlace).
func inPlaceState(cur, norm, old, want, bak []byte, backedUp bool) string {
	repaired, _ := withoutCompaction(want)
	switch {
	case bytes.Equal(cur, old):
		if backedUp && !bytes.Equal(bak, old) {
			return "old bytes, but a backup that does not hold them"
		}
	case bytes.Equal(norm, want) || (repaired != nil && bytes.Equal(norm, repaired)):
		if !bytes.Equal(bak, old) {
			return "new content without a backup of the old bytes"
		}
	default:
		return fmt.Sprintf("neither the old bytes nor the new content (%d bytes, had %d, new %d)", len(cur), len(old), len(want))
	}
	return ""
}

func has(m map[string][]byte, k string) bool { _, ok := m[k]; return ok }

// withoutCompaction returns b without its last line when that line is a
// compaction entry.
func withoutCompaction(b []byte) ([]byte, bool) {
	body := bytes.TrimSuffix(b, []byte("\n"))
	i := bytes.LastIndexByte(body, '\n')
	if i < 0 || !bytes.HasPrefix(body[i+1:], []byte(`{"type":"compaction",`)) {
		return nil, false
	}
	return b[:i+1], true
}

// checkCompacted checks an uninterrupted compaction: the old bytes, then
// one compaction line whose parent is the old last entry; and that the
// compacted file reads as Pi reads it: pitool context equals pi-ref's
// (a golden of the normalized file; -update regenerates it).
func checkCompacted(t *testing.T, path string, old, norm []byte) {
	t.Helper()
	before, ok := withoutCompaction(norm)
	if !ok || !bytes.Equal(before, old) {
		t.Fatalf("%s: not its old bytes (%d) and one compaction line (%d bytes)", path, len(old), len(norm))
	}
	if !bytes.Contains(norm[len(before):], []byte(`"parentId":"`+crashID(crashEntries-1)+`"`)) {
		t.Errorf("%s: the compaction's parent is not the old leaf", path)
	}
	file := filepath.Join(t.TempDir(), "compacted.jsonl")
	if err := os.WriteFile(file, norm, 0o600); err != nil {
		t.Fatal(err)
	}
	want := testref.Golden(t, golden(fmt.Sprintf("crash-compacted-%d.context.json", crashEntries)), "context", file)
	testref.AssertJSONEqual(t, "context of the compacted file", pitoolOut(t, "context", file), want)
}

// treeFiles reads every regular file under dir (temporary files and the
// pause hook's folder aside) by its path relative to dir.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || safefile.IsTempName(d.Name()) || strings.Contains(path, "/.hook/") {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// tempFiles lists pitool's temporary files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && safefile.IsTempName(d.Name()) {
			left = append(left, path)
		}
		return nil
	})
	return left
}

// archiveForTest compresses plain to plain.zst, as nightly archives it, and
// removes plain.
func archiveForTest(t *testing.T, plain string) {
	t.Helper()
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain+".zst", enc.EncodeAll(b, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	os.Remove(plain)
}

func zstdHolds(zst, want []byte) bool {
	if zst == nil {
		return false
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		return false
	}
	defer dec.Close()
	got, err := dec.DecodeAll(zst, nil)
	return err == nil && bytes.Equal(got, want)
}

var (
	freshID   = regexp.MustCompile(`^(\{"type":"(?:session|compaction)","(?:version":3,")?id":")[^"]*"`)
	todayTime = regexp.MustCompile(`"` + time.Now().UTC().Format("2006-01-02") + `T[0-9:.]+Z"`)
)

// normalize replaces what differs between two runs of a command on the
// same input: the trial folder's path, the id of a new header or
// compaction entry, and the time of today in those lines.
func normalize(b []byte, dir string) []byte {
	if b == nil {
		return nil
	}
	b = bytes.ReplaceAll(b, []byte(dir), []byte("/DIR"))
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(`{"type":"session"`)) || bytes.HasPrefix(l, []byte(`{"type":"compaction"`)) {
			l = freshID.ReplaceAll(l, []byte(`${1}fresh-id"`))
			lines[i] = todayTime.ReplaceAll(l, []byte(`"2026-01-02T00:00:00.000Z"`))
		}
	}
	return bytes.Join(lines, nil)
}
