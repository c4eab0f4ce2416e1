package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The uids of the tests' users: no passwd entry needed.
const (
	alice = 4242
	bob   = 4343
	carol = 4545
)

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("privilege separation happens only when pitool runs as root: run the tests as root to test it")
	}
}

// openTempDir is a t.TempDir() that other users may enter (t.TempDir()'s
// folders are root's, mode 0700).
func openTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// chownTree gives every file and folder under dir to uid.
func chownTree(t *testing.T, dir string, uid int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ownersUnder maps each path under dir to its owner's uid.
func ownersUnder(t *testing.T, dir string) map[string]uint32 {
	t.Helper()
	got := map[string]uint32{}
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		got[p] = info.Sys().(*syscall.Stat_t).Uid
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestPrivsepController(t *testing.T) {
	needRoot(t)
	dir := openTempDir(t)
	mk := func(rel string, uid int, mode os.FileMode) string {
		p := filepath.Join(dir, rel)
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		os.Chown(p, uid, uid)
		return p
	}
	rootDir := mk("root", 0, 0o755)
	home := mk("alice", alice, 0o755)
	sticky := mk("tmp", 0, 0o777|os.ModeSticky)
	open := mk("open", 0, 0o777)
	group := mk("group", 0, 0o775)
	os.Chown(group, 0, 100)
	copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(rootDir, "bobs.jsonl"), 0o600)
	os.Chown(filepath.Join(rootDir, "bobs.jsonl"), bob, bob)
	copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(sticky, "bobs.jsonl"), 0o600)
	os.Chown(filepath.Join(sticky, "bobs.jsonl"), bob, bob)
	os.Symlink(home, filepath.Join(rootDir, "to-alice"))
	os.Symlink("../alice", filepath.Join(rootDir, "rel-alice"))
	os.Symlink(rootDir, filepath.Join(home, "to-root"))

	for _, c := range []struct {
		path string
		uid  uint32
	}{
		{filepath.Join(rootDir, "x.jsonl"), 0},
		{filepath.Join(rootDir, "bobs.jsonl"), 0}, // its bytes are bob's, its name root's
		{filepath.Join(home, "s", "new.jsonl"), alice},
		{home, alice},
		{filepath.Join(rootDir, "to-alice", "a.jsonl"), alice},
		{filepath.Join(rootDir, "rel-alice", "a.jsonl"), alice},
		{filepath.Join(home, "to-root", "x.jsonl"), alice}, // alice can repoint it
		{filepath.Join(sticky, "bobs.jsonl"), bob},         // bob may rename it in /tmp
		{filepath.Join(sticky, "new.jsonl"), 0},
		{sticky, 0},
	} {
		got, err := pathController(c.path)
		if err != nil || got.uid != c.uid {
			t.Errorf("controller of %s: %v %v, want uid %d", c.path, got, err, c.uid)
		}
	}
	for _, p := range []string{filepath.Join(open, "x.jsonl"), open, filepath.Join(group, "x.jsonl")} {
		_, err := pathController(p)
		var ue *unsafePathError
		if !errors.As(err, &ue) {
			t.Errorf("%s: %v, want an unsafe path", p, err)
		}
	}
	os.Symlink("loop", filepath.Join(rootDir, "loop"))
	if _, err := pathController(filepath.Join(rootDir, "loop", "x")); !errors.Is(err, syscall.ELOOP) {
		t.Errorf("a symlink loop: %v", err)
	}
	cred := credential(controller{uid: alice, gid: 77})
	if cred.Uid != alice || cred.Gid != 77 || len(cred.Groups) != 0 {
		t.Errorf("credential of a uid without a passwd entry: %+v", cred)
	}
	if u, err := user.LookupId("65534"); err == nil {
		want, _ := strconv.ParseUint(u.Gid, 10, 32)
		cred := credential(controller{uid: 65534, gid: 77})
		if cred.Gid != uint32(want) || !slices.Contains(cred.Groups, uint32(want)) {
			t.Errorf("credential of %s: %+v, want the primary group %d from the user database", u.Username, cred, want)
		}
	}
}

// privsepReport is what the tests read of a nightly report.
type privsepReport struct {
	Totals  map[string]int
	Workers []struct {
		UID, GID, Files, Exit int
		User                  string
		InProcess             bool
	}
	Files []struct {
		File, Action, Detail, Backup string
		Damage                       []string
		Repaired                     bool
		RanAs                        *int
	}
}

// TestPrivsepNightlyTwoUsers: root's nightly over two users' sessions folders
// repairs, compacts and archives each user's sessions as that user: every
// file left is the user's, the summarizer command ran with the user's uid,
// gid and no supplementary group, and the report names both workers and who
// worked on each file. A file of bob's in alice's folder, which alice may
// not read, is skipped with the reason and left as it was.
func TestPrivsepNightlyTwoUsers(t *testing.T) {
	needRoot(t)
	exe := pitoolExe(t)
	dir := openTempDir(t)
	homes := map[int]string{}
	for _, uid := range []int{alice, bob} {
		s := filepath.Join(dir, "home-"+strconv.Itoa(uid), "sessions", "--p--")
		copyFile(t, corpusFile("corrupt/garbage-line.jsonl"), filepath.Join(s, "damaged.jsonl"), 0o600)
		copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(s, "due.jsonl"), 0o600)
		copyFile(t, corpusFile("v3/agent-run.jsonl"), filepath.Join(s, "idle.jsonl"), 0o600)
		old := time.Now().Add(-72 * time.Hour)
		os.Chtimes(filepath.Join(s, "idle.jsonl"), old, old)
		home := filepath.Dir(filepath.Dir(s))
		chownTree(t, home, uid)
		homes[uid] = home
	}
	bobsInAlices := filepath.Join(homes[alice], "sessions", "--p--", "bobs.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), bobsInAlices, 0o600)
	os.Chown(bobsInAlices, bob, bob)

	report := filepath.Join(dir, "report.json")
	cmd := exec.Command(exe, "nightly", "--min-idle", "0", "--archive-after", "1d", "--context-window", "7000",
		"--reserve-tokens", "3500", "--keep-recent-tokens", "1000", "--summarizer", "command",
		"--command", `cat >/dev/null; grep -E '^(Uid|Gid|Groups):' /proc/self/status | tr '\t' ' '`,
		"--report", report, filepath.Join(homes[alice], "sessions"), filepath.Join(homes[bob], "sessions"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nightly: %v\n%s", err, errb.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep privsepReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Workers) != 2 || rep.Workers[0].UID != alice || rep.Workers[1].UID != bob ||
		rep.Workers[0].GID != alice || rep.Workers[0].Files != 4 || rep.Workers[1].Files != 3 ||
		rep.Workers[0].Exit != 0 || rep.Workers[1].Exit != 0 {
		t.Errorf("workers: %+v", rep.Workers)
	}
	actions := map[string]string{}
	for _, f := range rep.Files {
		want := alice
		if strings.HasPrefix(f.File, homes[bob]) {
			want = bob
		}
		if f.RanAs == nil || *f.RanAs != want {
			t.Errorf("%s: ranAs %v, want %d", f.File, f.RanAs, want)
		}
		actions[f.File] = f.Action
	}
	for uid, home := range homes {
		s := filepath.Join(home, "sessions", "--p--")
		if a := actions[filepath.Join(s, "due.jsonl")]; a != "compacted" {
			t.Errorf("%d's due session: %s", uid, a)
		}
		if a := actions[filepath.Join(s, "idle.jsonl")]; a != "archived" {
			t.Errorf("%d's idle session: %s", uid, a)
		}
		if _, err := os.Stat(filepath.Join(s, "damaged.jsonl.bak")); err != nil {
			t.Errorf("%d's damaged session was not repaired: %v", uid, err)
		}
		if _, err := os.Stat(filepath.Join(s, "idle.jsonl.zst")); err != nil {
			t.Errorf("%d's idle session was not archived: %v", uid, err)
		}
		for p, owner := range ownersUnder(t, home) {
			if p != bobsInAlices && owner != uint32(uid) {
				t.Errorf("%s is owned by %d, want %d", p, owner, uid)
			}
		}
		due, err := os.ReadFile(filepath.Join(s, "due.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		ids := "Uid: " + strings.Repeat(strconv.Itoa(uid)+" ", 3) + strconv.Itoa(uid)
		if !strings.Contains(string(due), ids) || !strings.Contains(string(due), "Gid: "+strings.Repeat(strconv.Itoa(uid)+" ", 3)+strconv.Itoa(uid)) ||
			!regexp.MustCompile(`Groups: *\\n`).Match(due) {
			t.Errorf("%d's summarizer did not run as %d with no supplementary group:\n%s", uid, uid, string(due[max(0, len(due)-2000):]))
		}
	}
	var bobs struct{ Action, Detail string }
	for _, f := range rep.Files {
		if f.File == bobsInAlices {
			bobs.Action, bobs.Detail = f.Action, f.Detail
		}
	}
	if bobs.Action != "skipped" || !strings.Contains(bobs.Detail, "permission denied") || !strings.Contains(bobs.Detail, "uid 4242") {
		t.Errorf("bob's file in alice's folder: %+v", bobs)
	}
	if got := ownerMode(t, bobsInAlices); got != "4343:4343:600" {
		t.Errorf("bob's file: %s", got)
	}
	orig, _ := os.ReadFile(corpusFile("v3/linear.jsonl"))
	if now, _ := os.ReadFile(bobsInAlices); !bytes.Equal(now, orig) {
		t.Errorf("bob's file changed")
	}
	if !strings.Contains(errb.String(), "worked on as uid 4242 (4 files), uid 4343 (3 files)") {
		t.Errorf("summary: %s", errb.String())
	}

	// the root process writes the report and its state file: never into a
	// folder a user controls
	inHome := filepath.Join(homes[alice], "report.json")
	cmd = exec.Command(exe, "nightly", "--min-idle", "0", "--report", inHome, filepath.Join(homes[alice], "sessions"))
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "uid 4242 at "+homes[alice]+" controls that path") {
		t.Errorf("report in alice's folder: %v\n%s", err, out)
	}
	if _, err := os.Lstat(inHome); err == nil {
		t.Errorf("root wrote a report into alice's folder")
	}
}

// TestPrivsepRepairInPlace: root's repair -i on alice's session runs as
// alice: the backup is hers, and a folder of hers that links to carol's
// folder does not let root write there.
func TestPrivsepRepairInPlace(t *testing.T) {
	needRoot(t)
	exe := pitoolExe(t)
	dir := openTempDir(t)
	home := filepath.Join(dir, "alice")
	s := filepath.Join(home, "sessions", "p", "s.jsonl")
	copyFile(t, corpusFile("corrupt/duplicate-flush.jsonl"), s, 0o600)
	decoy := filepath.Join(dir, "carol", "d.jsonl")
	copyFile(t, corpusFile("corrupt/duplicate-flush.jsonl"), decoy, 0o644)
	chownTree(t, filepath.Join(dir, "carol"), carol)
	if err := os.Symlink(filepath.Dir(decoy), filepath.Join(home, "sessions", "q")); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(home, "sessions", "p", "c.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), c, 0o600)
	chownTree(t, home, alice)

	// the child's credentials, as its summarizer command sees them, and no
	// file root's pitool inherited open (here a root-only file as fd 7)
	secret := filepath.Join(dir, "root-only")
	if err := os.WriteFile(secret, []byte("root's"), 0o600); err != nil {
		t.Fatal(err)
	}
	compact := exec.Command("/bin/sh", "-c", `exec "$0" "$@" 7<"$ROOT_ONLY"`, exe, "compact", "--even-if-not-due", "--keep-recent-tokens", "1000", "--summarizer", "command",
		"--command", `cat >/dev/null; grep -E '^(Uid|Gid|Groups):' /proc/self/status | tr '\t' ' '; echo fds: $(ls /proc/self/fd); echo key=$TEST_KEY; cat /proc/$PPID/environ 2>&1 | tr -d '\000' | sed "s/^/parent's environ: /"`, c)
	compact.Env = append(os.Environ(), "ROOT_ONLY="+secret, "TEST_KEY=k3y")
	if out, err := compact.CombinedOutput(); err != nil {
		t.Fatalf("compact: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(c)
	if !strings.Contains(string(data), `fds: 0 1 2 3\n`) {
		t.Errorf("the child's summarizer has other files open than its own: %s", regexp.MustCompile(`fds: [0-9 ]*`).Find(data))
	}
	if !strings.Contains(string(data), `Uid: 4242 4242 4242 4242\nGid: 4242 4242 4242 4242\nGroups: `) ||
		!regexp.MustCompile(`Groups: *\\n`).Match(data) {
		t.Errorf("compact as root on alice's session did not run as alice with no supplementary group:\n%s", data[max(0, len(data)-600):])
	}
	if got := ownerMode(t, c); got != "4242:4242:600" {
		t.Errorf("compacted session: %s", got)
	}
	// root's environment reaches the summarizer, but the user cannot read it
	// from the child, which is not dumpable
	if !strings.Contains(string(data), `key=k3y\n`) || !regexp.MustCompile(`parent's environ: cat: /proc/[0-9]+/environ: Permission denied`).Match(data) {
		t.Errorf("the environment: %s", regexp.MustCompile(`key=[^"]*`).Find(data))
	}

	pitool(t, exe, "repair", "-i", "--force", s)
	if got := ownerMode(t, s+".bak"); got != "4242:4242:600" {
		t.Errorf("backup: %s, want alice's", got)
	}
	if got := ownerMode(t, s); got != "4242:4242:600" {
		t.Errorf("repaired session: %s, want alice's", got)
	}

	out, err := exec.Command(exe, "repair", "-i", "--force", filepath.Join(home, "sessions", "q", "d.jsonl")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "permission denied") {
		t.Errorf("repair -i through alice's link to carol's folder: %v\n%s", err, out)
	}
	orig, _ := os.ReadFile(corpusFile("corrupt/duplicate-flush.jsonl"))
	if now, _ := os.ReadFile(decoy); !bytes.Equal(now, orig) {
		t.Errorf("carol's file was written")
	}
	if entries, _ := os.ReadDir(filepath.Dir(decoy)); len(entries) != 1 {
		t.Errorf("carol's folder holds %d files, want 1", len(entries))
	}
}

// TestPrivsepRefusesMixedControllers: a command line that would write files
// of two users, or root's and a user's, or through a folder anyone may
// write, exits 2 and names each path's controller.
func TestPrivsepRefusesMixedControllers(t *testing.T) {
	needRoot(t)
	exe := pitoolExe(t)
	dir := openTempDir(t)
	var files []string
	for _, who := range []struct {
		name string
		uid  int
	}{{"alice", alice}, {"bob", bob}, {"root", 0}} {
		f := filepath.Join(dir, who.name, "s.jsonl")
		copyFile(t, corpusFile("corrupt/duplicate-flush.jsonl"), f, 0o600)
		chownTree(t, filepath.Dir(f), who.uid)
		files = append(files, f)
	}
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o777)
	os.Chmod(open, 0o777)
	for _, args := range [][]string{
		{"repair", "-i", "--force", files[0], files[1]},
		{"repair", "-i", "--force", files[2], files[0]},
		{"redact", "-i", "--force", files[0], files[1]},
		{"repair", "--force", "-o", filepath.Join(open, "out.jsonl"), files[2]},
	} {
		cmd := exec.Command(exe, args...)
		out, err := cmd.CombinedOutput()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 2 {
			t.Errorf("pitool %v: %v, want exit 2\n%s", args, err, out)
		}
		if !strings.Contains(string(out), "uid 4242 at ") && !strings.Contains(string(out), "unsafe path") {
			t.Errorf("pitool %v: %s", args, out)
		}
	}
	orig, _ := os.ReadFile(corpusFile("corrupt/duplicate-flush.jsonl"))
	for _, f := range files {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, orig) {
			t.Errorf("%s was written", f)
		}
	}
	// read-only command lines run as they are, as root
	pitool(t, exe, "validate", "--help")
	if out, err := exec.Command(exe, "repair", "--dry-run", files[0], files[1]).CombinedOutput(); err != nil && !strings.Contains(string(out), "fixed") {
		t.Logf("repair --dry-run of two users' files: %v %s", err, out)
	}
}

// TestPrivsepNightlyInterrupt: SIGINT to root's nightly reaches the worker
// run as alice; the run exits 130 and still writes its report, alice's
// files in flight "interrupted" and bob's, whose worker never started, not
// listed, and leaves every file as it was.
func TestPrivsepNightlyInterrupt(t *testing.T) {
	needRoot(t)
	exe := pitoolExe(t)
	dir := openTempDir(t)
	var sessions []string
	for _, uid := range []int{alice, bob} {
		s := filepath.Join(dir, "home-"+strconv.Itoa(uid), "sessions")
		for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
			copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(s, "--p--", name), 0o600)
		}
		chownTree(t, filepath.Dir(s), uid)
		sessions = append(sessions, s)
	}
	marks := filepath.Join(dir, "marks")
	os.Mkdir(marks, 0o777)
	os.Chmod(marks, 0o777)
	report := filepath.Join(dir, "report.json")
	cmd := exec.Command(exe, "nightly", "-j", "2", "--min-idle", "0", "--context-window", "7000",
		"--reserve-tokens", "3500", "--keep-recent-tokens", "1000", "--summarizer", "command",
		"--command", `mktemp -p "$MARKS" >/dev/null; exec sleep 30`, "--report", report, sessions[0], sessions[1])
	cmd.Env = append(os.Environ(), "MARKS="+marks)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForMarks(t, marks, 2)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d:\n%s", err, exitInterrupted, errb.String())
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s to stop", took)
	}
	var rep privsepReport
	data, _ := os.ReadFile(report)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if len(rep.Workers) != 1 || rep.Workers[0].UID != alice || rep.Workers[0].Exit != exitInterrupted || len(rep.Files) == 0 {
		t.Errorf("workers %+v, %d files", rep.Workers, len(rep.Files))
	}
	for _, f := range rep.Files {
		if !strings.HasPrefix(f.File, sessions[0]) || f.RanAs == nil || *f.RanAs != alice {
			t.Errorf("file %+v", f)
		}
	}
	if rep.Totals["interrupted"] < 2 {
		t.Errorf("totals %v", rep.Totals)
	}
	orig, _ := os.ReadFile(corpusFile("v3/linear.jsonl"))
	for _, s := range sessions {
		for _, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
			if now, _ := os.ReadFile(filepath.Join(s, "--p--", name)); !bytes.Equal(now, orig) {
				t.Errorf("%s changed", name)
			}
		}
	}
}

// TestPrivsepSessionNamedByID: root's compact of a session named by an id
// prefix, in alice's sessions folder, runs as alice (the id is resolved
// before privsep decides who controls the path): its summarizer command
// reports alice's uid, and the session stays hers.
func TestPrivsepSessionNamedByID(t *testing.T) {
	needRoot(t)
	exe := pitoolExe(t)
	agent := filepath.Join(openTempDir(t), "alice", "agent")
	s := filepath.Join(agent, "sessions", "--home-dev-project--", "2026-01-01T00-00-00-000Z_01a22eed-84e2-746d-a4fb-4bc77e29deed.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), s, 0o600)
	chownTree(t, filepath.Dir(agent), alice)
	cmd := exec.Command(exe, "compact", "--even-if-not-due", "--keep-recent-tokens", "1000", "--summarizer", "command",
		"--command", `cat >/dev/null; grep -E '^Uid:' /proc/self/status | tr '\t' ' '`, "01a22eed-84e2")
	cmd.Env = append(os.Environ(), "PI_CODING_AGENT_DIR="+agent)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compact by id: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(s); !strings.Contains(string(data), `Uid: 4242 4242 4242 4242`) {
		t.Errorf("compact as root of alice's session named by id did not run as alice:\n%s", data[max(0, len(data)-400):])
	}
	if got := ownerMode(t, s); got != "4242:4242:600" {
		t.Errorf("compacted session: %s, want alice's", got)
	}
}
