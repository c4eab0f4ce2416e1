package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	systemServicePath = "systemd/pitool-nightly-system.service"
	systemTimerPath   = "systemd/pitool-nightly-system.timer"
)

// systemScript returns the shell script of the system service's ExecStart,
// after the lock, with systemd's $$ read as $.
func systemScript(t *testing.T, service map[string][]string) string {
	t.Helper()
	execStart := one(t, service, "Service.ExecStart")
	lock := "/usr/bin/flock --nonblock %t/pitool-nightly-system.lock /bin/sh -c '"
	script, ok := strings.CutPrefix(execStart, lock)
	if !ok || !strings.HasSuffix(script, "'") || strings.Count(script, "'") != 1 {
		t.Fatalf("ExecStart %q: want %s…'", execStart, lock)
	}
	script = strings.ReplaceAll(strings.TrimSuffix(script, "'"), "$$", "$")
	if strings.Contains(script, "%") {
		t.Fatalf("script %q: a specifier this test does not replace", script)
	}
	return script
}

// TestSystemdSystemUnits checks the administrator's units: a timer that
// catches up, a oneshot root service (no User=: pitool itself runs each
// user's files as that user) behind a lock, hardened but able to write the
// homes, whose script runs nightly over every existing sessions folder and
// nothing at all when there is none.
func TestSystemdSystemUnits(t *testing.T) {
	timer := unitSettings(t, systemTimerPath)
	if one(t, timer, "Timer.Persistent") != "true" || one(t, timer, "Timer.OnCalendar") == "" ||
		one(t, timer, "Install.WantedBy") != "timers.target" {
		t.Errorf("timer: %v", timer)
	}
	service := unitSettings(t, systemServicePath)
	if one(t, service, "Service.Type") != "oneshot" {
		t.Errorf("service type %q", service["Service.Type"])
	}
	if _, ok := service["Service.User"]; ok {
		t.Errorf("the system service starts as root, and pitool separates the users: no User=")
	}
	if _, ok := service["Service.ProtectHome"]; ok {
		t.Errorf("ProtectHome would hide or freeze the sessions it works on")
	}
	for key, want := range map[string]string{
		"Service.ProtectSystem": "strict", "Service.ReadWritePaths": "/home", "Service.NoNewPrivileges": "yes",
		"Service.LogsDirectory": "pitool", "Service.PrivateDevices": "yes",
	} {
		if got := one(t, service, key); got != want {
			t.Errorf("%s=%s, want %s", key, got, want)
		}
	}
	caps := strings.Fields(one(t, service, "Service.CapabilityBoundingSet"))
	for _, c := range []string{"CAP_SETUID", "CAP_SETGID", "CAP_DAC_READ_SEARCH"} {
		if !slices.Contains(caps, c) {
			t.Errorf("CapabilityBoundingSet %v lacks %s, which the root process needs", caps, c)
		}
	}

	script := systemScript(t, service)
	root := t.TempDir()
	os.Chmod(root, 0o755)
	os.Chmod(filepath.Dir(root), 0o755)
	script = strings.NewReplacer("/home/", root+"/home/", "/usr/local/bin/pitool", pitoolBinary(t),
		"/var/log/pitool/", root+"/log/").Replace(script)
	if err := os.MkdirAll(filepath.Join(root, "log"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() {
		t.Helper()
		if out, err := exec.Command("/bin/sh", "-c", script).CombinedOutput(); err != nil {
			t.Fatalf("the service's script: %v\n%s", err, out)
		}
	}
	report := filepath.Join(root, "log", "nightly.json")
	run() // no home at all
	if _, err := os.Stat(report); err == nil {
		t.Errorf("a report with no sessions folder")
	}

	// two users with sessions, one without
	orig, err := os.ReadFile("../testdata/corpus/corrupt/joined-lines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]int{"alice": 4242, "bob": 4343}
	for name, uid := range users {
		s := filepath.Join(root, "home", name, ".pi", "agent", "sessions", "--p--")
		if err := os.MkdirAll(s, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s, "a.jsonl"), orig, 0o600); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() == 0 {
			filepath.Walk(filepath.Join(root, "home", name), func(p string, _ os.FileInfo, _ error) error {
				return os.Lchown(p, uid, uid)
			})
		}
	}
	os.MkdirAll(filepath.Join(root, "home", "carol"), 0o755)
	// the sessions are fresh: --min-idle would leave them; age them
	oldTime := time.Now().Add(-time.Hour)
	for name := range users {
		p := filepath.Join(root, "home", name, ".pi", "agent", "sessions", "--p--", "a.jsonl")
		if err := os.Chtimes(p, oldTime, oldTime); err != nil {
			t.Fatal(err)
		}
	}
	run()
	var rep struct {
		Totals  map[string]int
		Workers []struct{ UID int }
		Files   []struct{ File, Action string }
	}
	data, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("report: %v %s", err, data)
	}
	if rep.Totals["files"] != 2 || rep.Totals["repaired"] != 2 || rep.Totals["failed"] != 0 {
		t.Errorf("report totals %v", rep.Totals)
	}
	if os.Geteuid() != 0 {
		return
	}
	if len(rep.Workers) != 2 || rep.Workers[0].UID != 4242 || rep.Workers[1].UID != 4343 {
		t.Errorf("workers %+v, want alice's and bob's", rep.Workers)
	}
	for name, uid := range users {
		s := filepath.Join(root, "home", name, ".pi", "agent", "sessions", "--p--")
		for _, f := range []string{"a.jsonl", "a.jsonl.bak"} {
			info, err := os.Stat(filepath.Join(s, f))
			if err != nil || info.Sys().(*syscall.Stat_t).Uid != uint32(uid) {
				t.Errorf("%s of %s: %v, want owned by %d", f, name, err, uid)
			}
		}
	}
}

// TestSystemdAnalyzeVerifySystem runs systemd-analyze verify on the system
// units; any message fails.
func TestSystemdAnalyzeVerifySystem(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	out, err := exec.Command(analyze, "verify", systemTimerPath, systemServicePath).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
