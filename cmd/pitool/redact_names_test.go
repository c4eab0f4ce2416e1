package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedactSecretNames plants fake keys of the secrets corpus in a folder
// name and a file name, under a home folder (/home/<user>/ and Pi's
// --home-<user>-…-- form): no planted key, and with --paths not the user
// name either, may appear on stdout, on stderr (messages about files that
// cannot be read included) or in the name of a file redact writes.
func TestRedactSecretNames(t *testing.T) {
	const user = "quentinuser"
	const aws, npm = "AKIAFOTOTZPOBZWF4K2T", "npm_yObSCVDdvCD3xJcTuT9e4IVLYhrpNAvJ5hEn"
	planted := plantedValues(t, "../../testdata/corpus/secrets/manifest.json")
	for _, v := range []string{aws, npm} {
		if !strings.Contains(strings.Join(planted, "\n"), v) {
			t.Fatalf("%s is not planted in the corpus manifest", v)
		}
	}
	root := t.TempDir()
	sessions := filepath.Join(root, "home", user, ".pi", "agent", "sessions")
	project := filepath.Join(sessions, "--home-"+user+"-keys-"+npm+"--")
	session := filepath.Join(project, "2026-01-01T00-00-00-000Z_"+aws+".jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), session, 0o644)
	copyFile(t, corpusFile("v3/branched.jsonl"), filepath.Join(project, "other-"+npm+".jsonl"), 0o644)
	broken := filepath.Join(root, "home", user, "junk-"+npm, "broken-"+aws+".jsonl.gz")
	if err := os.MkdirAll(filepath.Dir(broken), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	leaks := append(planted, user)
	check := func(what, text string) {
		t.Helper()
		assertNoLeak(t, what, text, leaks)
		if strings.Contains(text, user) {
			t.Errorf("%s shows the user name:\n%s", what, text)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	runs := [][]string{
		{"--check", "--json", "--paths", sessions},
		{"--check", "--paths", sessions},
		{"--check", "--json", "--paths", session},
		{"--check", "--paths", broken},
		{"--check", "--paths", filepath.Dir(broken)},
		{"-o", out, "--paths", sessions},
		{"-o", filepath.Join(t.TempDir(), "one.jsonl"), "--report", "json", "--paths", session},
		{"-o", out + "2", "--paths", session, broken},
	}
	for _, args := range runs {
		code, stdout, stderr := runPitool(context.Background(), append([]string{"redact"}, args...)...)
		if code == exitUsage && strings.Contains(stderr, "hint: run 'pitool --help'") {
			t.Fatalf("redact %v: usage error: %s", args, stderr)
		}
		what := "redact " + strings.Join(args, " ")
		check(what+": stdout", stdout)
		check(what+": stderr", stderr)
		if strings.Contains(strings.Join(args, " "), "--json") {
			var rep struct{ Files []struct{ Path string } }
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Files) == 0 {
				t.Errorf("%s: no JSON report (%v):\n%s", what, err, stdout)
			}
			for _, f := range rep.Files {
				if !strings.Contains(f.Path, "[REDACTED:aws-access-token:") && !strings.Contains(f.Path, "[REDACTED:npm-access-token:") {
					t.Errorf("%s: path %s shows no placeholder", what, f.Path)
				}
			}
		}
	}
	var names []string
	for _, dir := range []string{out, out + "2"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				names = append(names, p)
				if !strings.HasSuffix(p, ".jsonl") {
					t.Errorf("output %s is not named as a session", p)
				}
			}
			return nil
		})
	}
	if len(names) != 3 {
		t.Errorf("want 3 redacted copies, got %q", names)
	}
	check("output names", strings.Join(names, "\n"))
}

// TestRedactOutputCollision: two inputs that would be written under one
// name (two sessions of one name in different folders, named on the
// command line) are both written, the second as NAME-2.jsonl.
func TestRedactOutputCollision(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a", "s.jsonl"), filepath.Join(dir, "b", "s.jsonl")
	copyFile(t, corpusFile("v3/linear.jsonl"), a, 0o644)
	copyFile(t, corpusFile("v3/branched.jsonl"), b, 0o644)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runPitool(context.Background(), "redact", "-o", out, a, b); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, from := range map[string]string{"s.jsonl": a, "s-2.jsonl": b} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(from)
		if strings.Count(string(got), "\n") != strings.Count(string(want), "\n") {
			t.Errorf("%s does not hold the copy of %s", name, from)
		}
	}
}
