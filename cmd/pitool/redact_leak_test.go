package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leakWindow is the longest stretch of a secret an output may show: a
// finding's preview shows four bytes; no output may show sixteen.
const leakWindow = 16

// TestRedactOutputsHoldNoSecret runs every output path of redact (text
// findings, --json, --report json with -o and --in-place, the session on
// standard output, warnings and errors) over the secrets session and a
// folder holding sessions, backups, a quarantine, a truncated .gz and a
// line that is not JSON, and export --redact over the sessions. No planted
// value, nor any 16 bytes of one, may appear on standard output or
// standard error, nor in a written file.
func TestRedactOutputsHoldNoSecret(t *testing.T) {
	planted := plantedValues(t, "../../testdata/corpus/secrets/manifest.json", "../../redact/testdata/secrets-in-structure.manifest.json")
	session := "../../testdata/corpus/secrets/session.jsonl"
	structure := "../../redact/testdata/secrets-in-structure.jsonl"
	dir, clean := leakFolder(t, session, structure, true), leakFolder(t, session, structure, false)
	out := t.TempDir()
	runs := [][]string{
		{"--check", session},
		{"--check", "--json", session},
		{"--check", "--report", "json", dir},
		{"--check", dir},
		{"-o", "-", session},
		{"-o", filepath.Join(out, "one.jsonl"), "--report", "json", session},
		{"-o", filepath.Join(out, "tree"), dir},
		{"-o", filepath.Join(out, "tree"), clean},
		{"--in-place", "--force", "--report", "json", filepath.Join(dir, "s.jsonl")},
		{"--in-place", "--force", dir},
		{"--in-place", "--force", clean},
		{"--check", "--pii", "--paths", dir},
	}
	for _, args := range runs {
		code, stdout, stderr := runPitool(context.Background(), append([]string{"redact"}, args...)...)
		if code == exitUsage && strings.Contains(stderr, "hint: run 'pitool --help'") {
			t.Fatalf("redact %v: usage error: %s", args, stderr)
		}
		assertNoLeak(t, strings.Join(args, " ")+": stdout", stdout, planted)
		assertNoLeak(t, strings.Join(args, " ")+": stderr", stderr, planted)
	}
	written := []string{filepath.Join(out, "one.jsonl"), filepath.Join(dir, "s.jsonl")}
	for _, args := range [][]string{{"html", "--all-branches"}, {"md"}} {
		for i, in := range []string{session, structure} {
			f := filepath.Join(out, fmt.Sprintf("export-%d.%s", i, args[0]))
			code, stdout, stderr := runPitool(context.Background(), append(append([]string{"export"}, args...), "--redact", "-o", f, in)...)
			if code != 0 {
				t.Fatalf("export %v %s: exit %d: %s", args, in, code, stderr)
			}
			assertNoLeak(t, "export "+args[0]+": stdout", stdout, planted)
			written = append(written, f)
		}
	}
	for _, name := range []string{"s.jsonl", "structure.jsonl"} {
		written = append(written, filepath.Join(out, "tree", name), filepath.Join(clean, name))
	}
	for _, f := range written {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		assertNoLeak(t, f, string(b), planted)
	}
}

// leakFolder builds a folder of redact inputs with secrets in every form:
// sessions, a backup and a quarantine of one, a truncated .gz (an error
// half-way, when broken) and a line that is not JSON (a warning).
func leakFolder(t *testing.T, session, structure string, broken bool) string {
	dir := t.TempDir()
	data, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := os.ReadFile(structure)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	notJSON := append(append([]byte{}, extra...), []byte(`{"type":"message","id":"zz","content":"AKIAFOTOTZPOBZWF4K2T npm_yObSCVDdvCD3xJcTuT9e4IVLYhrpNAvJ5hEn`+"\n")...)
	files := map[string][]byte{
		"s.jsonl": data, "s.jsonl.bak": data, "s.jsonl.bak.1": extra, "s.quarantine": notJSON,
		"structure.jsonl": extra,
	}
	if broken {
		files["cut.jsonl.gz"] = gz.Bytes()[:gz.Len()/2]
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// plantedValues reads the planted values of the manifests.
func plantedValues(t *testing.T, manifests ...string) []string {
	var out []string
	for _, path := range manifests {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Planted []struct{ Value string } `json:"planted"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Planted {
			out = append(out, p.Value)
		}
	}
	return out
}

// assertNoLeak fails when text holds a planted value shorter than
// leakWindow, or any leakWindow bytes of a longer one.
func assertNoLeak(t *testing.T, what, text string, planted []string) {
	t.Helper()
	if at := leakAt(text, planted); at >= 0 {
		t.Errorf("%s shows a planted value, or %d bytes of one, at byte %d", what, leakWindow, at)
	}
}

// leakAt returns where text shows a planted value (or leakWindow bytes of
// one), or -1.
func leakAt(text string, planted []string) int {
	windows := map[string]bool{}
	for _, v := range planted {
		if len(v) < leakWindow {
			if i := strings.Index(text, v); i >= 0 {
				return i
			}
			continue
		}
		for i := 0; i+leakWindow <= len(v); i++ {
			windows[v[i:i+leakWindow]] = true
		}
	}
	for i := 0; i+leakWindow <= len(text); i++ {
		if windows[text[i:i+leakWindow]] {
			return i
		}
	}
	return -1
}

// TestLeakAt checks the detector itself: a preview passes, a longer cut of
// a secret does not.
func TestLeakAt(t *testing.T) {
	planted := []string{"ghp_cJMF8GbJe1LmFItZPZwpjEz0OCSO8cYksWrR", "short-secret"}
	for text, want := range map[string]int{
		"at $.a: ghp_…(40 bytes)":                 -1,
		"x cJMF8GbJe1LmFItZPZwp y":                2,
		`$["ghp_cJMF8GbJe1LmFItZPZwpjEz0OCSO"]`:   3,
		"a short-secret":                          2,
		"[REDACTED:github-pat:0123abcd] and more": -1,
	} {
		if got := leakAt(text, planted); got != want {
			t.Errorf("leakAt(%q) = %d, want %d", text, got, want)
		}
	}
}
