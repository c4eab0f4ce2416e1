package deploy

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestMain removes the pitool that the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binDir holds the pitool built for the tests, once.
var binDir string

// buildPitool builds pitool with the go command that runs the tests (go
// test puts it first on $PATH).
var buildPitool = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "pitool-deploy-")
	if err != nil {
		return "", err
	}
	binDir = dir
	exe := filepath.Join(dir, "pitool")
	out, err := exec.Command("go", "build", "-o", exe, "github.com/pitool/pitool/cmd/pitool").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return exe, nil
})

func pitoolBinary(t *testing.T) string {
	t.Helper()
	exe, err := buildPitool()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// runCommandLine runs a unit's or manifest's pitool arguments on an empty
// sessions folder in a temporary directory, with each path argument (those
// starting with /) moved inside it: the flags must exist and parse.
func runCommandLine(t *testing.T, args []string) {
	t.Helper()
	root := t.TempDir()
	moved := make([]string, len(args))
	for i, a := range args {
		moved[i] = a
		if strings.HasPrefix(a, "/") {
			moved[i] = filepath.Join(root, a)
		}
	}
	last := moved[len(moved)-1]
	if err := os.MkdirAll(last, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, a := range moved {
		if a != last && strings.HasPrefix(a, root) {
			if err := os.MkdirAll(filepath.Dir(a), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(pitoolBinary(t), moved...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("pitool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// unitSettings reads a systemd unit file into section.Key -> values.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	settings := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = strings.Trim(line, "[]")
		default:
			key, value, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: not a setting: %q", path, line)
			}
			settings[section+"."+key] = append(settings[section+"."+key], value)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return settings
}

func one(t *testing.T, settings map[string][]string, key string) string {
	t.Helper()
	if v := settings[key]; len(v) == 1 {
		return v[0]
	}
	t.Fatalf("%s: %q, want one value", key, settings[key])
	return ""
}

const (
	servicePath = "systemd/pitool-nightly.service"
	timerPath   = "systemd/pitool-nightly.timer"
)

// TestSystemdUnits checks what the units promise: a timer that catches up
// on missed nights, a oneshot service behind a lock, run as the user (a
// user unit), with a pitool command line that parses.
func TestSystemdUnits(t *testing.T) {
	timer := unitSettings(t, timerPath)
	if one(t, timer, "Timer.Persistent") != "true" || one(t, timer, "Timer.OnCalendar") == "" {
		t.Errorf("timer: %v", timer)
	}
	service := unitSettings(t, servicePath)
	if one(t, service, "Service.Type") != "oneshot" {
		t.Errorf("service type %q", service["Service.Type"])
	}
	if _, ok := service["Service.User"]; ok {
		t.Errorf("a user unit runs as its user: User= has no place in it")
	}
	exec := strings.Fields(one(t, service, "Service.ExecStart"))
	lock := []string{"/usr/bin/flock", "--nonblock", "%t/pitool-nightly.lock"}
	if len(exec) < 5 || !slices.Equal(exec[:3], lock) || filepath.Base(exec[3]) != "pitool" || exec[4] != "nightly" {
		t.Fatalf("ExecStart %q: want %q then pitool nightly", exec, lock)
	}
	args := slices.Clone(exec[4:])
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "%S", "/state")
		if strings.Contains(args[i], "%") {
			t.Fatalf("ExecStart argument %q: a specifier this test does not replace", a)
		}
	}
	runCommandLine(t, append(args, "/home/user/.pi/agent/sessions"))
}

// TestSystemdAnalyzeVerify runs systemd-analyze verify on the units as user
// units; any message, even a warning about an unknown key, fails.
func TestSystemdAnalyzeVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	cmd := exec.Command(analyze, "--user", "verify", timerPath, servicePath)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// decodeStrict reads a manifest into v, failing on any field the type lacks.
func decodeStrict(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// pitoolArgs returns the arguments after pitool of a pod's only container.
func pitoolArgs(t *testing.T, containers []corev1.Container) []string {
	t.Helper()
	if len(containers) != 1 {
		t.Fatalf("%d containers, want 1", len(containers))
	}
	c := containers[0]
	cmd := append(slices.Clone(c.Command), c.Args...)
	if len(cmd) < 2 || cmd[0] != "pitool" || cmd[1] != "nightly" {
		t.Fatalf("container runs %q, want pitool nightly", cmd)
	}
	if len(c.VolumeMounts) != 1 || cmd[len(cmd)-1] != c.VolumeMounts[0].MountPath {
		t.Errorf("nightly runs on %q, the sessions volume is mounted at %v", cmd[len(cmd)-1], c.VolumeMounts)
	}
	return cmd[1:]
}

func TestCronJob(t *testing.T) {
	var cj batchv1.CronJob
	decodeStrict(t, "kubernetes/cronjob.yaml", &cj)
	if cj.APIVersion != "batch/v1" || cj.Kind != "CronJob" {
		t.Errorf("%s %s", cj.APIVersion, cj.Kind)
	}
	if cj.Spec.Schedule != "30 3 * * *" || cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Errorf("schedule %q, concurrencyPolicy %q: want a nightly schedule and Forbid", cj.Spec.Schedule, cj.Spec.ConcurrencyPolicy)
	}
	pod := cj.Spec.JobTemplate.Spec.Template.Spec
	checkRunsAsOwner(t, pod.SecurityContext)
	args := pitoolArgs(t, pod.Containers)
	if slices.Contains(args, "--shard") {
		t.Errorf("the CronJob runs the whole folder, not a shard: %q", args)
	}
	runCommandLine(t, args)
}

func TestIndexedJob(t *testing.T) {
	var job batchv1.Job
	decodeStrict(t, "kubernetes/indexed-job.yaml", &job)
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Errorf("%s %s", job.APIVersion, job.Kind)
	}
	spec := job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion || spec.Completions == nil {
		t.Fatalf("completionMode %v, completions %v: want Indexed with a count", spec.CompletionMode, spec.Completions)
	}
	checkRunsAsOwner(t, spec.Template.Spec.SecurityContext)
	args := pitoolArgs(t, spec.Template.Spec.Containers)
	i := slices.Index(args, "--shard")
	// JOB_COMPLETION_INDEX counts from 0, as K in --shard K/N does
	want := "$(JOB_COMPLETION_INDEX)/" + strconv.Itoa(int(*spec.Completions))
	if i < 0 || i+1 >= len(args) || args[i+1] != want {
		t.Fatalf("container args %q: want --shard %s", args, want)
	}
	for k := range int(*spec.Completions) {
		shardArgs := slices.Clone(args)
		shardArgs[i+1] = strings.ReplaceAll(want, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(k))
		runCommandLine(t, shardArgs)
	}
}

// checkRunsAsOwner wants a pod that runs as a set, non-root user, without
// an fsGroup (which would change the session files' group).
func checkRunsAsOwner(t *testing.T, sc *corev1.PodSecurityContext) {
	t.Helper()
	if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser == 0 || sc.FSGroup != nil {
		t.Errorf("pod securityContext %+v: want runAsUser the sessions' owner, and no fsGroup", sc)
	}
}
