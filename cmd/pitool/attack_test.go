package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"
)

// The attacks of issue 25, each against the real binary run as root on a
// folder another uid owns (see attack_helpers_test.go for how the attacker
// is played and how the races are driven). Each asserts outcomes only: the
// victim's folder is exactly as before (bytes, mode, owner, listing), the
// victim's bytes never reach the attacker, and pitool ended. A non-zero
// exit, or the file reported skipped or failed, is an acceptable outcome.

// atkNightlyArgs runs nightly on the attacker's sessions, reporting beside them.
func atkNightlyArgs(ar *atkArena, extra ...string) []string {
	args := append([]string{"nightly", "--min-idle", "0", "--report", filepath.Join(ar.base, "r.json")}, extra...)
	return append(args, filepath.Join(ar.A, "sessions"))
}

// atkLeakedInto reports the files under dir holding the victim's bytes.
func atkLeakedInto(dir string) string {
	var found []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(victimMarker)) {
				found = append(found, p)
			}
		}
		return nil
	})
	if len(found) == 0 {
		return ""
	}
	return "the victim's bytes are in " + strings.Join(found, ", ")
}

// atkHarmOf is every harm found after a trial: the victim's folder changed,
// and, when the attacker could not read the victim (no read bit for group
// or others), its bytes in the attacker's tree.
func atkHarmOf(t *testing.T, ar *atkArena, parts ...string) string {
	parts = append(parts, ar.victimHarm(t))
	if ar.victimMode&0o044 == 0 {
		parts = append(parts, atkLeakedInto(ar.A))
	}
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// Attack 1: after the rename, carryLate reopens the session BY NAME with
// O_APPEND. The attacker holds the old inode open (or reaches it later
// through FILE.bak, the backup's hard link), waits for the rename, renames a
// symlink to the victim over the session's name and writes one whole line
// into the old inode: root appends it to the victim.
// Driven: the test acts at the first open pitool makes in the session's
// folder after the session's inode changed (the folder sync right after the
// rename), or when a 200µs poller sees the change first.
func TestAttackCarryLateAppendsToVictim(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	cases := []struct {
		name   string
		from   string
		viaBak bool // write through FILE.bak instead of a held descriptor
		args   func(ar *atkArena, s string) []string
	}{
		{"repair -i", corpusFile("corrupt/garbage-line.jsonl"), false, func(ar *atkArena, s string) []string { return []string{"repair", "-i", "--force", s} }},
		{"repair -i via FILE.bak", corpusFile("corrupt/garbage-line.jsonl"), true, func(ar *atkArena, s string) []string { return []string{"repair", "-i", "--force", s} }},
		{"redact -i", corpusFile("secrets/session.jsonl"), false, func(ar *atkArena, s string) []string { return []string{"redact", "-i", "--force", s} }},
		{"nightly repair", corpusFile("corrupt/garbage-line.jsonl"), false, func(ar *atkArena, s string) []string { return atkNightlyArgs(ar) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trials, fired, intact := attackRounds(), 0, 0
			var harms []string
			for i := 0; i < trials; i++ {
				ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
				s := ar.session(t, "sessions/--p--/s.jsonl", c.from)
				// The attacker's descriptor of its own file (held by root
				// here: the attacker owns the file, so it could hold it).
				old, err := os.OpenFile(s, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				ino := atkInode(s)
				acted := false
				check := atkWhenReady(func() bool { n := atkInode(s); return n != 0 && n != ino }, func() {
					acted = true
					if err := attackerLink(ar.victim, s); err != nil {
						return
					}
					if !c.viaBak {
						old.WriteString(attackLine)
					} else if bak, err := os.OpenFile(s+".bak", os.O_WRONLY|os.O_APPEND, 0); err == nil {
						bak.WriteString(attackLine)
						bak.Close()
					}
				})
				g := atkNewGate(t, func(atkGateEvent) { check() }, filepath.Dir(s))
				r := atkStartPitool(t, exe, nil, c.args(ar, s)...)
				stopPoll := atkStartPoll(check)
				r.finish(t, c.name)
				stopPoll()
				g.close()
				old.Close()
				if acted {
					fired++
				}
				if h := atkHarmOf(t, ar); h != "" {
					harms = append(harms, h+"\n"+r.output())
				} else {
					intact++
				}
			}
			if fired == 0 {
				t.Errorf("the session was never replaced: the attack was never tried")
			}
			atkReportAttack(t, "carry-late "+c.name, trials, intact, harms)
		})
	}
}

// Attack 2: the archive step (nightly --archive-after 1d on an old session).
// (a) A dangling symlink planted as X.jsonl.zst, pointing into the victim's
// folder, after the checks: the no-clobber create follows it and makes a new
// file there. (b) A symlink to the victim renamed over X.jsonl after
// archivable()'s Lstat: root archives the victim and removes it.
// Driven: a sweep over every open pitool makes in the session's folder
// (trial k acts while the kth open waits).
func TestAttackArchiveOutsideTheTree(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	cases := []struct {
		name string
		act  func(ar *atkArena, s string)
	}{
		{"dangling zst link creates a file in the victim's folder", func(ar *atkArena, s string) {
			attackerLink(filepath.Join(ar.V, "planted.jsonl.zst"), s+".zst")
		}},
		{"symlink over the session removes the victim", func(ar *atkArena, s string) {
			attackerLink(ar.victim, s)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			atkSweepRounds(t, "archive "+c.name, func(t *testing.T, k int) (int, string) {
				ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
				s := ar.session(t, "sessions/--p--/s.jsonl", corpusFile("v3/linear.jsonl"))
				opens := 0
				g := atkNewGate(t, atkAtOpen(k, &opens, func(atkGateEvent) { c.act(ar, s) }), filepath.Dir(s))
				r := atkStartPitool(t, exe, nil, atkNightlyArgs(ar, "--archive-after", "1d")...)
				r.finish(t, c.name)
				g.close()
				return opens, atkHarmOf(t, ar)
			})
		})
	}
}

// Attack 3: the out-of-tree rule is checked only during the walk. A damaged
// session swapped for a symlink to the victim's damaged 0600 session after
// the walk: root repairs the victim in place, makes victim.jsonl.bak in the
// victim's folder and writes the victim's quarantined lines into the
// attacker's folder. Driven: a sweep over every open in the session's folder.
func TestAttackSwapAfterWalkRepairsVictim(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	atkSweepRounds(t, "swap after walk", func(t *testing.T, k int) (int, string) {
		ar := atkNewArena(t, corpusFile("corrupt/garbage-line.jsonl"), 0o600)
		s := ar.session(t, "sessions/--p--/R.jsonl", corpusFile("corrupt/garbage-line.jsonl"))
		opens := 0
		g := atkNewGate(t, atkAtOpen(k, &opens, func(atkGateEvent) { attackerLink(ar.victim, s) }), filepath.Dir(s))
		r := atkStartPitool(t, exe, nil, atkNightlyArgs(ar)...)
		r.finish(t, "nightly")
		g.close()
		return opens, atkHarmOf(t, ar)
	})
}

// atkHangCheck waits for a run that may be stuck: it must end on its own
// within 5 s (a run takes well under a second, about one under -race on two
// cores); if not, one SIGTERM must end it within 2 s (a second's grace and
// a second's slack). It returns what went wrong ("" for nothing) and kills
// what is left.
func atkHangCheck(r *atkPitoolRun) string {
	if r.wait(5 * time.Second) {
		return ""
	}
	why := "nightly hung (still running after 5s)"
	r.cmd.Process.Signal(syscall.SIGTERM)
	if !r.wait(2 * time.Second) {
		why += "; SIGTERM did not end it within 2s"
	}
	r.kill()
	return why
}

// Attack 4 (and 10): a FIFO swapped in after the walk's check hangs nightly
// at its next os.Open, and SIGTERM does not stop it. (a) The session itself;
// (b) stale temporary files (.NAME.pitool-tmp-X), listed as regular files by
// the stale-file cleanup, then swapped for FIFOs before it opens them.
// Driven: a sweep over every open in the folder; at each, the test swaps in
// the FIFOs, then asserts nightly ends within 5 s (else that one SIGTERM
// ends it within 2 s, and the test fails either way).
func TestAttackFIFOSwapHangsNightly(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	cases := []struct {
		name  string
		setup func(t *testing.T, ar *atkArena, s string) []string // the names swapped for FIFOs
	}{
		{"session", func(t *testing.T, ar *atkArena, s string) []string { return []string{s} }},
		{"stale temporary files", func(t *testing.T, ar *atkArena, s string) []string {
			var names []string
			for _, x := range []string{"aaaaaa", "bbbbbb", "cccccc"} {
				p := filepath.Join(filepath.Dir(s), ".s.jsonl.pitool-tmp-"+x)
				atkWriteOwned(t, p, []byte("stale\n"), 0o600, attackerUID)
				names = append(names, p)
			}
			return names
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			atkSweepRounds(t, "fifo "+c.name, func(t *testing.T, k int) (int, string) {
				ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
				s := ar.session(t, "sessions/--p--/s.jsonl", corpusFile("corrupt/garbage-line.jsonl"))
				names := c.setup(t, ar, s)
				opens := 0
				g := atkNewGate(t, atkAtOpen(k, &opens, func(ev atkGateEvent) {
					for _, p := range names {
						attackerFIFO(p)
					}
				}), filepath.Dir(s))
				r := atkStartPitool(t, exe, nil, atkNightlyArgs(ar)...)
				hung := atkHangCheck(r)
				g.close()
				return opens, atkHarmOf(t, ar, hung)
			})
		})
	}
}

// Attack 5: redact -i --backup chmods FILE.bak by name after carryLate (at
// least 50 ms after the backup link is made). The attacker swaps FILE.bak
// for a symlink to the victim: the victim's mode becomes 0600. Driven: the
// test acts at the first open in the folder once FILE.bak exists and the
// session was renamed over (the folder sync after the rename), or when the
// poller sees it first.
func TestAttackBackupChmodFollowsLink(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	trials, fired, intact := attackRounds(), 0, 0
	var harms []string
	for i := 0; i < trials; i++ {
		ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
		s := ar.session(t, "sessions/--p--/s.jsonl", corpusFile("secrets/session.jsonl"))
		ino := atkInode(s)
		acted := false
		check := atkWhenReady(func() bool {
			info, err := os.Lstat(s + ".bak")
			n := atkInode(s)
			return err == nil && info.Mode().IsRegular() && n != 0 && n != ino
		}, func() {
			acted = true
			attackerLink(ar.victim, s+".bak")
		})
		g := atkNewGate(t, func(atkGateEvent) { check() }, filepath.Dir(s))
		r := atkStartPitool(t, exe, nil, "redact", "-i", "--backup", "--force", s)
		stopPoll := atkStartPoll(check)
		r.finish(t, "redact -i --backup")
		stopPoll()
		g.close()
		if acted {
			fired++
		}
		if h := atkHarmOf(t, ar); h != "" {
			harms = append(harms, h)
		} else {
			intact++
		}
	}
	if fired == 0 {
		t.Errorf("FILE.bak never appeared: the attack was never tried")
	}
	atkReportAttack(t, "backup chmod", trials, intact, harms)
}

// Attack 6: --report and -o resolve links by hand, so the protected_symlinks
// rule is never applied: an attacker's symlink in a sticky world-writable
// folder, pointing to the victim, makes root replace the victim. No race:
// the link is planted before pitool starts.
func TestAttackStickyFolderLink(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	cases := []struct {
		name string
		args func(ar *atkArena, sticky string) []string
	}{
		{"nightly --report", func(ar *atkArena, sticky string) []string {
			ar.session(t, "sessions/--p--/s.jsonl", corpusFile("v3/linear.jsonl"))
			return []string{"nightly", "--min-idle", "0", "--report", filepath.Join(sticky, "r.json"), filepath.Join(ar.A, "sessions")}
		}},
		{"repair -o", func(ar *atkArena, sticky string) []string {
			in := filepath.Join(ar.base, "root-input.jsonl")
			copyFile(t, corpusFile("corrupt/garbage-line.jsonl"), in, 0o600)
			return []string{"repair", "--force", "-o", filepath.Join(sticky, "r.json"), in}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trials, intact := attackRounds(), 0
			var harms []string
			for i := 0; i < trials; i++ {
				ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
				sticky := filepath.Join(ar.base, "tmp")
				os.Mkdir(sticky, 0o777)
				os.Chmod(sticky, 0o777|os.ModeSticky)
				if err := attackerLink(ar.victim, filepath.Join(sticky, "r.json")); err != nil {
					t.Fatal(err)
				}
				r := atkStartPitool(t, exe, nil, c.args(ar, sticky)...)
				r.finish(t, c.name)
				if h := atkHarmOf(t, ar); h != "" {
					harms = append(harms, h)
				} else {
					intact++
				}
			}
			atkReportAttack(t, "sticky "+c.name, trials, intact, harms)
		})
	}
}

// Attack 7: redact -o ATTACKERDIR/out ATTACKERTREE over a tree holding a
// symlink to the victim's 0600 session: root copies what the attacker could
// not read into the attacker's own output. No race.
func TestAttackRedactCopiesUnreadableFile(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	trials, intact := attackRounds(), 0
	var harms []string
	for i := 0; i < trials; i++ {
		ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o600)
		ar.session(t, "tree/--p--/own.jsonl", corpusFile("v3/linear.jsonl"))
		if err := attackerLink(ar.victim, filepath.Join(ar.A, "tree", "--p--", "link.jsonl")); err != nil {
			t.Fatal(err)
		}
		r := atkStartPitool(t, exe, nil, "redact", "-o", filepath.Join(ar.A, "out"), filepath.Join(ar.A, "tree"))
		r.finish(t, "redact -o")
		if h := atkHarmOf(t, ar); h != "" {
			harms = append(harms, h)
		} else {
			intact++
		}
	}
	atkReportAttack(t, "redact copies unreadable", trials, intact, harms)
}

// atkPlantedKeys returns the first planted value of each kind of the secrets
// corpus that redact finds in a session's content by its shape alone (a
// token with a known prefix): such a value must not survive in a name.
func atkPlantedKeys(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(corpusFile("secrets/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Planted []struct{ Kind, Value string }
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"anthropic": true, "github-fine-grained": true, "github-pat": true, "npm": true, "stripe-live": true, "gitlab-pat": true, "slack-bot": true}
	var keys []string
	for _, p := range m.Planted {
		if want[p.Kind] {
			keys = append(keys, p.Value)
			want[p.Kind] = false
		}
	}
	if len(keys) == 0 {
		t.Fatal("no planted keys in the manifest")
	}
	return keys
}

// atkNamesHolding lists the paths under dir whose name (relative to dir) holds
// one of keys.
func atkNamesHolding(dir string, keys ...string) []string {
	var found []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		for _, k := range keys {
			if strings.Contains(rel, k) {
				found = append(found, rel)
				break
			}
		}
		return nil
	})
	return found
}

// atkPrintedKeys lists the keys out holds.
func atkPrintedKeys(out string, keys []string) []string {
	var found []string
	for _, k := range keys {
		if strings.Contains(out, k) {
			found = append(found, k)
		}
	}
	return found
}

// Attack 8: a secret in a file or folder name survives redaction. No uids.
// Planted keys of the secrets corpus (each one redact finds in content) in
// file names (notes-KEY.jsonl) and a folder name: --check --json prints
// them in "path"; -o writes them into the output's names. --paths ("also
// redact the user name in home folder paths (and cwd)") leaves the user
// name in the folder names of the copy.
func TestAttackSecretInFileName(t *testing.T) {
	exe := pitoolExe(t)
	keys := atkPlantedKeys(t)
	const user = "zorblaxuser"
	dir := t.TempDir()
	sessions := filepath.Join(dir, "sessions")
	b, err := os.ReadFile(corpusFile("v3/linear.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"cwd":"/home/dev/project"`), []byte(`"cwd":"/home/`+user+`/proj"`), 1)
	files := []string{filepath.Join(sessions, "--home-dev-"+keys[0]+"--", "a.jsonl")}
	for _, k := range keys {
		files = append(files, filepath.Join(sessions, "--home-"+user+"-proj--", "notes-"+k+".jsonl"))
	}
	for _, f := range files {
		os.MkdirAll(filepath.Dir(f), 0o700)
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	do := func(t *testing.T, args ...string) string {
		r := atkStartPitool(t, exe, nil, args...)
		r.finish(t, strings.Join(args[:2], " "))
		return r.output()
	}
	t.Run("check --json", func(t *testing.T) {
		if found := atkPrintedKeys(do(t, "redact", "--check", "--json", sessions), keys); len(found) > 0 {
			t.Errorf("redact --check --json prints %d keys held in file names: %q", len(found), found)
		}
	})
	t.Run("-o OUTDIR", func(t *testing.T) {
		out := filepath.Join(dir, "out")
		printed := do(t, "redact", "-o", out, sessions)
		if names := atkNamesHolding(out, keys...); len(names) > 0 {
			t.Errorf("redact -o writes keys into the output's names: %q", names)
		}
		if found := atkPrintedKeys(printed, keys); len(found) > 0 {
			t.Errorf("redact -o prints %d keys held in file names: %q", len(found), found)
		}
	})
	t.Run("--paths", func(t *testing.T) {
		out := filepath.Join(dir, "out-paths")
		do(t, "redact", "--paths", "-o", out, sessions)
		if names := atkNamesHolding(out, user); len(names) > 0 {
			t.Errorf("redact --paths leaves the user name %q in the output's names: %q", user, names)
		}
		if leaked := atkLeakedNames(out, user); leaked != "" {
			t.Errorf("redact --paths leaves the user name in %s", leaked)
		}
	})
}

// atkLeakedNames lists the files under dir whose bytes hold s.
func atkLeakedNames(dir, s string) string {
	var found []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(s)) {
				found = append(found, p)
			}
		}
		return nil
	})
	return strings.Join(found, ", ")
}

// Attack 9: read commands on an input that is not a Pi session (a binary
// file, a corrupt .gz, a UTF-16 file) must exit 2, not warn and exit 0.
func TestAttackReadCommandsRefuseNonSessions(t *testing.T) {
	exe := pitoolExe(t)
	dir := t.TempDir()
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	line, _ := os.ReadFile(corpusFile("v3/linear.jsonl"))
	u16 := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(string(line))) {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	inputs := map[string][]byte{
		"binary.jsonl":     bin,
		"corrupt.jsonl.gz": append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, bin[:512]...),
		"utf16.jsonl":      u16,
	}
	commands := [][]string{{"stats"}, {"search", "model"}, {"info"}, {"context"}, {"validate"}, {"tree"}, {"tokens"}}
	for name, b := range inputs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range commands {
			args := append(append([]string{}, cmd...), p)
			t.Run(fmt.Sprintf("%s/%s", cmd[0], name), func(t *testing.T) {
				r := atkStartPitool(t, exe, nil, args...)
				r.finish(t, cmd[0])
				if code := r.code(); code != 2 {
					t.Errorf("pitool %s on %s: exit %d, want 2\n%s", cmd[0], name, code, r.output())
				}
			})
		}
	}
}

// Attack 10: SIGTERM to nightly stalled in an open (the gate holds its open
// of the session, as a FIFO or a dead mount would) ends it within a second
// (asserted: 2 s, for slack under -race on two cores); a second SIGTERM,
// 50 ms after the first, ends it at once (asserted: 500 ms). Driven: the
// test sends the signals while it holds pitool's first open of the session,
// and keeps holding it until pitool ended or the bound passed.
func TestAttackSignalsEndStalledNightly(t *testing.T) {
	atkNeedRoot(t)
	exe := pitoolExe(t)
	cases := []struct {
		name    string
		signals int
		within  time.Duration
	}{
		{"one SIGTERM", 1, 2 * time.Second},
		{"second SIGTERM", 2, 500 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trials, intact := attackRounds(), 0
			var harms []string
			for i := 0; i < trials; i++ {
				ar := atkNewArena(t, corpusFile("v3/linear.jsonl"), 0o644)
				s := ar.session(t, "sessions/--p--/s.jsonl", corpusFile("v3/linear.jsonl"))
				rc := make(chan *atkPitoolRun, 1)
				var r *atkPitoolRun
				stalled, why := false, ""
				g := atkNewGate(t, func(ev atkGateEvent) {
					if stalled || ev.path != s {
						return
					}
					stalled = true
					r := <-rc
					for n := 0; n < c.signals; n++ {
						if n > 0 {
							time.Sleep(50 * time.Millisecond)
						}
						r.cmd.Process.Signal(syscall.SIGTERM)
					}
					if !r.wait(c.within) {
						why = fmt.Sprintf("still running %v after %d SIGTERM while stalled in an open", c.within, c.signals)
					}
				}, filepath.Dir(s))
				r = atkStartPitool(t, exe, nil, atkNightlyArgs(ar)...)
				rc <- r
				r.finish(t, "nightly")
				g.close()
				if !stalled {
					t.Fatalf("nightly never opened the session")
				}
				if h := atkHarmOf(t, ar, why); h != "" {
					harms = append(harms, h)
				} else {
					intact++
				}
			}
			atkReportAttack(t, "signals "+c.name, trials, intact, harms)
		})
	}
}
