package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/safefile"
)

// Faults during writes: a full disk (a real small tmpfs when the machine
// allows the mount, and always safefile's fault hook failing after N bytes),
// EIO on fsync, a read-only folder, an output path that is the input, and a
// Pi writer appending during every in-place command and compact. Each fault
// must give an error that names the file, a non-zero exit, every input
// unchanged, and no temporary file.

// faultCase is one writing command run into a fault.
type faultCase struct {
	name    string
	setup   func(t *testing.T, dir string)
	args    func(dir string) []string
	inputs  []string // files that must keep their bytes
	appends bool     // compact: its append may be written before the fsync fails
	small   bool     // writes files of a few KB (a compaction line, a report, an archive)
}

var faultCases = []faultCase{
	{name: "repair --in-place", setup: tornSession,
		args: func(d string) []string {
			return []string{"repair", "--in-place", "--force", filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "repair -o", setup: tornSession,
		args: func(d string) []string {
			return []string{"repair", "--force", "-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "redact --in-place", setup: plainSession,
		args: func(d string) []string {
			return []string{"redact", "--in-place", "--force", "--secret", "dolor", filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "redact -o", setup: plainSession,
		args: func(d string) []string {
			return []string{"redact", "--secret", "dolor", "-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "compact", setup: plainSession, appends: true, small: true,
		args: func(d string) []string {
			return []string{"compact", "--context-window", "50000", "--keep-recent-tokens", "2000", filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "nightly", small: true,
		setup: func(t *testing.T, d string) {
			writeCrashSession(t, filepath.Join(d, "sessions", "p", "torn.jsonl"), tornLine)
			old := filepath.Join(d, "sessions", "p", "old.jsonl")
			writeCrashSession(t, old, "")
			past := time.Now().Add(-48 * time.Hour)
			os.Chtimes(old, past, past)
		},
		args: func(d string) []string {
			return []string{"nightly", "--min-idle", "0", "--archive-after", "1d", "--report", filepath.Join(d, "report.json"), filepath.Join(d, "sessions")}
		},
		inputs: []string{"sessions/p/torn.jsonl", "sessions/p/old.jsonl"}},
	{name: "clone", setup: plainSession,
		args: func(d string) []string {
			return []string{"clone", "-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "fork", setup: plainSession,
		args: func(d string) []string {
			return []string{"fork", "--cwd", "/home/dev/other", "-o", filepath.Join(d, "out.jsonl"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "export html", setup: plainSession,
		args: func(d string) []string {
			return []string{"export", "html", "-o", filepath.Join(d, "out.html"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
	{name: "export md", setup: plainSession,
		args: func(d string) []string {
			return []string{"export", "md", "-o", filepath.Join(d, "out.md"), filepath.Join(d, "s.jsonl")}
		},
		inputs: []string{"s.jsonl"}},
}

func plainSession(t *testing.T, dir string) { writeCrashSession(t, filepath.Join(dir, "s.jsonl"), "") }

func tornSession(t *testing.T, dir string) {
	writeCrashSession(t, filepath.Join(dir, "s.jsonl"), tornLine)
}

// runFault runs the case in dir with extra environment and returns its exit
// code and standard error.
func runFault(t *testing.T, exe string, c faultCase, dir string, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(exe, c.args(dir)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// checkFault checks a failed run: a non-zero exit, an error that says what
// failed and names a file in dir, every input unchanged (compact: or with
// its whole compaction line, when only the fsync failed), nothing new but
// outputs that were never created, and no temporary file.
func checkFault(t *testing.T, c faultCase, dir string, before map[string][]byte, code int, stderr, want string) {
	t.Helper()
	if code == 0 || !strings.Contains(stderr, want) || !strings.Contains(stderr, dir) {
		t.Errorf("%s: exit %d, want non-zero and an error with %q naming the file:\n%s", c.name, code, want, stderr)
	}
	if i := strings.Index(stderr, "pitool: error: "); i >= 0 {
		t.Logf("%s: %s", c.name, strings.SplitN(stderr[i:], "\n", 2)[0])
	}
	after := treeFiles(t, dir)
	for _, rel := range c.inputs {
		got, old := after[rel], before[rel]
		if bytes.Equal(got, old) {
			continue
		}
		if rest, ok := withoutCompaction(got); !c.appends || !ok || !bytes.Equal(rest, old) {
			t.Errorf("%s: %s changed (%d bytes, had %d)", c.name, rel, len(got), len(old))
		}
	}
	for rel := range after {
		if _, ok := before[rel]; !ok {
			t.Errorf("%s: left a new file %s", c.name, rel)
		}
	}
	if left := tempFiles(t, dir); len(left) > 0 {
		t.Errorf("%s: temporary files left: %v", c.name, left)
	}
}

// TestFullDiskAfterNBytes: with safefile's fault hook every file pitool
// writes takes N bytes and then fails with ENOSPC; every command fails
// cleanly (see checkFault). N is 0, 200 (inside the first buffer) and, for
// commands whose every write is larger, 100,000 (after a flush or more).
func TestFullDiskAfterNBytes(t *testing.T) {
	exe := pitoolExe(t)
	for _, n := range []int{0, 200, 100_000} {
		for _, c := range faultCases {
			if c.small && n > 200 {
				continue
			}
			dir := t.TempDir()
			c.setup(t, dir)
			before := treeFiles(t, dir)
			code, stderr := runFault(t, exe, c, dir, fmt.Sprintf("%s=write-after:%d", safefile.FaultEnv, n))
			checkFault(t, c, dir, before, code, stderr, "no space left on device")
		}
	}
}

// TestFsyncEIO: every fsync of a written file fails with EIO.
func TestFsyncEIO(t *testing.T) {
	exe := pitoolExe(t)
	for _, c := range faultCases {
		dir := t.TempDir()
		c.setup(t, dir)
		before := treeFiles(t, dir)
		code, stderr := runFault(t, exe, c, dir, safefile.FaultEnv+"=sync")
		checkFault(t, c, dir, before, code, stderr, "input/output error")
	}
}

// mountOrSkip runs mount with args, skipping the test when it is refused
// (not root, or no mount privilege in this container), and unmounts dir at
// the end of the test.
func mountOrSkip(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("mount %v refused (%v: %s); the fault hook tests cover this fault", args, err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

// TestFullDiskTmpfs: the same on a real full disk, a 4 MB tmpfs filled up
// after the inputs were written.
func TestFullDiskTmpfs(t *testing.T) {
	exe := pitoolExe(t)
	for _, c := range faultCases {
		dir := filepath.Join(t.TempDir(), "disk")
		os.Mkdir(dir, 0o755)
		mountOrSkip(t, dir, "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir)
		c.setup(t, dir)
		if c.appends {
			padToPage(t, filepath.Join(dir, "s.jsonl"))
		}
		fillDisk(t, filepath.Join(dir, "filler"))
		before := treeFiles(t, dir)
		code, stderr := runFault(t, exe, c, dir)
		checkFault(t, c, dir, before, code, stderr, "no space left on device")
	}
}

// padToPage appends a custom entry that ends the session at a page
// boundary, so that on a full tmpfs no append fits in its last page.
func padToPage(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	line := `{"type":"custom","customType":"pad","id":"pad00001","parentId":"` + crashID(crashEntries-1) + `","timestamp":"2026-01-01T01:00:00.000Z","data":""}` + "\n"
	pad := 4096 - (info.Size()+int64(len(line)))%4096
	appendLine(t, path, strings.Replace(line, `"data":""`, `"data":"`+strings.Repeat("x", int(pad))+`"`, 1))
}

// fillDisk writes path until the file system is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			return
		}
	}
}

// TestReadOnlyFolder: the inputs sit on a read-only bind mount (root
// ignores mode bits, so a mode 0555 folder would prove nothing). Every
// command fails, naming the file, and changes nothing.
func TestReadOnlyFolder(t *testing.T) {
	exe := pitoolExe(t)
	for _, c := range faultCases {
		src, dir := t.TempDir(), filepath.Join(t.TempDir(), "ro")
		os.Mkdir(dir, 0o755)
		c.setup(t, src)
		mountOrSkip(t, dir, "--bind", src, dir)
		if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
			t.Skipf("remount read-only refused: %v: %s", err, out)
		}
		before := treeFiles(t, dir)
		code, stderr := runFault(t, exe, c, dir)
		checkFault(t, c, dir, before, code, stderr, "read-only file system")
	}
}

// TestOutputIsTheInput: every command with -o refuses an output that is
// its input, named as it is, through a symlink or through a hard link, with
// exit 2 and the input unchanged.
func TestOutputIsTheInput(t *testing.T) {
	exe := pitoolExe(t)
	commands := [][]string{{"repair", "--force"}, {"redact"}, {"clone"}, {"fork", "--cwd", "/home/dev/other"}, {"export", "html"}, {"export", "md"}}
	for _, cmd := range commands {
		for _, alias := range []string{"same", "symlink", "hardlink"} {
			dir := t.TempDir()
			in := filepath.Join(dir, "s.jsonl")
			writeCrashSession(t, in, "")
			out := in
			switch alias {
			case "symlink":
				out = filepath.Join(dir, "link.jsonl")
				os.Symlink(in, out)
			case "hardlink":
				out = filepath.Join(dir, "hard.jsonl")
				os.Link(in, out)
			}
			before := treeFiles(t, dir)
			c := faultCase{name: strings.Join(cmd, " ") + " -o " + alias, inputs: []string{"s.jsonl"},
				args: func(string) []string { return append(append([]string{}, cmd...), "-o", out, in) }}
			code, stderr := runFault(t, exe, c, dir)
			if code != 2 {
				t.Errorf("%s: exit %d, want 2", c.name, code)
			}
			checkFault(t, c, dir, before, code, stderr, "never writes over its input")
		}
	}
}

// concurrentCase is one command run while a Pi-like writer appends.
type concurrentCase struct {
	name  string
	setup func(t *testing.T, dir string) (file, lastID string)
	args  func(dir, file string) []string
	// replaces: an in-place rewrite. Lines Pi writes to the old file in
	// the moment between Commit's last look and its rename are carried
	// after the ones Pi then writes to the new file (carryLate): they stay
	// in the file, but if Pi stops right then, its last line is not the
	// last entry. The test counts those lines off the branch and logs them.
	replaces bool
}

var concurrentCases = []concurrentCase{
	{"repair --in-place", corpusSession("corrupt/duplicate-flush.jsonl", "a7bc1895"),
		func(_, f string) []string { return []string{"repair", "--in-place", "--force", f} }, true},
	{"redact --in-place", bigSession,
		func(_, f string) []string { return []string{"redact", "--in-place", "--force", "--secret", "dolor", f} }, true},
	{"nightly", func(t *testing.T, dir string) (string, string) {
		f := filepath.Join(dir, "sessions", "p", "s.jsonl")
		copyFile(t, corpusFile("corrupt/duplicate-flush.jsonl"), f, 0o600)
		return f, "a7bc1895"
	}, func(dir, _ string) []string {
		return []string{"nightly", "--min-idle", "0", "--report", filepath.Join(dir, "r.json"), filepath.Join(dir, "sessions")}
	}, true},
	{"compact", bigSession,
		func(_, f string) []string {
			return []string{"compact", "--context-window", "50000", "--keep-recent-tokens", "2000", f}
		}, false},
	{"compact -j 2 folder", func(t *testing.T, dir string) (string, string) {
		f := filepath.Join(dir, "sessions", "a.jsonl")
		writeCrashSession(t, f, "")
		writeCrashSession(t, filepath.Join(dir, "sessions", "b.jsonl"), "")
		return f, crashID(crashEntries - 1)
	}, func(dir, _ string) []string {
		return []string{"compact", "-j", "2", "--min-idle", "0", "--context-window", "50000", "--keep-recent-tokens", "2000", filepath.Join(dir, "sessions")}
	}, false},
}

func corpusSession(name, last string) func(*testing.T, string) (string, string) {
	return func(t *testing.T, dir string) (string, string) {
		f := filepath.Join(dir, "s.jsonl")
		copyFile(t, corpusFile(name), f, 0o600)
		return f, last
	}
}

func bigSession(t *testing.T, dir string) (string, string) {
	f := filepath.Join(dir, "s.jsonl")
	writeCrashSession(t, f, "")
	return f, crashID(crashEntries - 1)
}

// TestConcurrentPiWriterKeepsEveryLineOnTheBranch runs every in-place
// command and compact while a Pi-like writer appends a line every
// millisecond (each parented on the one before, as Pi does), and checks
// that every appended line is in the file exactly once and, for compact, on
// the active branch (the path from the last entry to the root, as Pi
// resumes it); for in-place rewrites see concurrentCase.replaces.
// The long suite sets the trials per command (default 2; suite_test.go).
func TestConcurrentPiWriterKeepsEveryLineOnTheBranch(t *testing.T) {
	exe := pitoolExe(t)
	trials := stressTrials(2)
	for _, c := range concurrentCases {
		total, off := 0, 0
		for trial := range trials {
			dir := t.TempDir()
			file, last := c.setup(t, dir)
			stop := make(chan struct{})
			var ids []string
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); ids = appendEveryMillisecond(file, last, trial, stop) }()
			time.Sleep(5 * time.Millisecond)
			out, err := exec.Command(exe, c.args(dir, file)...).CombinedOutput()
			time.Sleep(5 * time.Millisecond)
			close(stop)
			wg.Wait()
			total += len(ids)
			if err != nil {
				t.Errorf("%s, trial %d: %v\n%s", c.name, trial, err, out)
			}
			data, _ := os.ReadFile(file)
			branch := activeBranch(data)
			for _, id := range ids {
				n := bytes.Count(data, []byte(`"id":"`+id+`"`))
				switch {
				case n != 1 || (!branch[id] && !c.replaces):
					t.Errorf("%s, trial %d: appended line %s is in the file %d times, on the active branch: %v", c.name, trial, id, n, branch[id])
				case !branch[id]:
					off++
				}
			}
		}
		t.Logf("%s: %d trials, %d lines appended during the runs, none lost, %d off the active branch (carried late)", c.name, trials, total, off)
	}
}

// activeBranch returns the ids on the path from the file's last entry to
// its root: the branch Pi resumes. Lines that are not entries (blank,
// garbage, the header) are skipped, as Pi's loader skips them.
func activeBranch(data []byte) map[string]bool {
	parent := map[string]string{}
	leaf := ""
	for _, line := range bytes.Split(data, []byte("\n")) {
		var e struct {
			Type     string
			ID       string
			ParentID *string
		}
		if json.Unmarshal(line, &e) != nil || e.Type == "session" || e.ID == "" {
			continue
		}
		leaf = e.ID
		if e.ParentID != nil {
			parent[e.ID] = *e.ParentID
		}
	}
	on := map[string]bool{}
	for id := leaf; id != "" && !on[id]; id = parent[id] {
		on[id] = true
	}
	return on
}

// TestCompactWindowKeepsPisLineOnTheBranch: Pi appends a line between
// compact's last check and its append (the pause hook holds compact there).
// Pi's line must stay on the active branch: compact withdraws its entry
// (a blank line is left), reports the file skipped, and Pi's line is the
// leaf. The next compact asks for a repair (the blank line), and after it
// compacts the file with Pi's line on the branch.
func TestCompactWindowKeepsPisLineOnTheBranch(t *testing.T) {
	exe := pitoolExe(t)
	dir := t.TempDir()
	file, last := bigSession(t, dir)
	hook := t.TempDir()
	args := []string{"compact", "--json", "--context-window", "50000", "--keep-recent-tokens", "2000", file}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), safefile.PauseEnv+"="+hook)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-waitCue(hook, 0, true)
	piLine := fmt.Sprintf(`{"type":"message","id":"p1a2b3c4","parentId":%q,"timestamp":"2026-12-01T00:08:00.000Z","message":{"role":"user","content":[{"type":"text","text":"typed while compacting"}],"timestamp":1767225680000}}`+"\n", last)
	appendLine(t, file, piLine)
	os.WriteFile(filepath.Join(hook, "resume"), nil, 0o600)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("compact: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), `"status":"skipped"`) || !strings.Contains(stdout.String(), "withdrawn") {
		t.Errorf("compact did not report the file skipped with its entry withdrawn:\n%s", stdout.String())
	}
	data, _ := os.ReadFile(file)
	if branch := activeBranch(data); !branch["p1a2b3c4"] || bytes.Contains(data, []byte(`"type":"compaction"`)) {
		t.Errorf("Pi's line on the active branch: %v; a compaction entry in the file: %v", branch["p1a2b3c4"], bytes.Contains(data, []byte(`"type":"compaction"`)))
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	blank, pi := lines[len(lines)-1], lines[len(lines)-2]
	if string(pi)+"\n" != piLine || len(blank) == 0 || len(bytes.Trim(blank, " ")) != 0 {
		t.Errorf("the file does not end with Pi's line and the blanked entry: %.80q, %.80q", pi, blank)
	}
	again := append(args[:len(args)-1:len(args)-1], "--min-idle", "0", file)
	if out := pitoolOut(t, again...); !bytes.Contains(out, []byte("run pitool repair first")) {
		t.Errorf("compact of the file with the blank line: %s", out)
	}
	pitoolOut(t, "repair", "--in-place", "--force", file)
	if out := pitoolOut(t, again...); !bytes.Contains(out, []byte(`"status":"compacted"`)) {
		t.Errorf("compact after repair: %s", out)
	}
	if data, _ := os.ReadFile(file); !activeBranch(data)["p1a2b3c4"] {
		t.Errorf("after repair and compact, Pi's line is off the active branch")
	}
	if out := pitoolOut(t, "context", file); !bytes.Contains(out, []byte("typed while compacting")) {
		t.Errorf("pitool context lost Pi's line")
	}
}

func appendLine(t *testing.T, file, line string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}
