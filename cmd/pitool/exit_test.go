package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// notSessions writes the inputs that are not Pi sessions, or cannot be
// read, into dir: binary data, a .gz whose stream is corrupt, a .gz cut
// in its header, and a session saved as UTF-16.
func notSessions(t *testing.T, dir string) map[string]string {
	t.Helper()
	session, err := os.ReadFile(corpusFile("v3/linear.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(session)
	zw.Close()
	corrupt := bytes.Clone(gz.Bytes())
	for i := 20; i < len(corrupt)-10; i++ {
		corrupt[i] ^= 0x5a
	}
	binary := make([]byte, 3000)
	for i := range binary {
		binary[i] = byte(i*7 + i/13)
	}
	u16 := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(strings.SplitAfter(string(session), "\n")[0])) {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	files := map[string][]byte{
		"binary":      binary,
		"corrupt gz":  corrupt,
		"cut gz head": gz.Bytes()[:6],
		"UTF-16":      u16,
	}
	names := map[string]string{}
	for kind, b := range files {
		name := strings.ReplaceAll(kind, " ", "-") + ".jsonl"
		if strings.Contains(kind, "gz") {
			name += ".gz"
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		names[kind] = p
	}
	return names
}

// TestExitNotSession: every read command given a file that is not a Pi
// session, or cannot be read, exits 2 with one error line naming the file
// and where (gate.go's readFailures rule).
func TestExitNotSession(t *testing.T) {
	dir := t.TempDir()
	inputs := notSessions(t, dir)
	commands := [][]string{
		{"stats"}, {"stats", "--json"}, {"search", "the"}, {"search", "-c", "the"}, {"info"}, {"info", "--json"},
		{"context"}, {"tokens"}, {"tree"}, {"validate"}, {"export", "md"}, {"export", "html"},
	}
	for _, cmd := range commands {
		for kind, file := range inputs {
			t.Run(strings.Join(cmd, " ")+"/"+kind, func(t *testing.T) {
				code, _, stderr := runPitool(context.Background(), append(append([]string{}, cmd...), file)...)
				if code != exitUsage {
					t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
				}
				var errs []string
				for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
					if strings.HasPrefix(l, "pitool: error: ") {
						errs = append(errs, l)
					}
				}
				if len(errs) != 1 || !strings.HasPrefix(errs[0], "pitool: error: "+file+":") ||
					!strings.ContainsAny(strings.TrimPrefix(errs[0], "pitool: error: "+file), "0123456789") {
					t.Errorf("want one positioned error line naming %s, got:\n%s", file, stderr)
				}
			})
		}
	}
}

// TestExitEmptyFile: an empty file stays what it was, a session with no
// entries (Pi refuses to open it; the commands say so and exit 0), validate
// reports the missing header (exit 1), search finds nothing (exit 1).
func TestExitEmptyFile(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"stats"}, 0}, {[]string{"info"}, 0}, {[]string{"context"}, 0}, {[]string{"tokens"}, 0},
		{[]string{"tree"}, 0}, {[]string{"export", "md"}, 0}, {[]string{"validate"}, 1}, {[]string{"search", "x"}, 1},
	} {
		if code, _, stderr := runPitool(context.Background(), append(tc.args, empty)...); code != tc.code {
			t.Errorf("%v on an empty file: exit %d, want %d\n%s", tc.args, code, tc.code, stderr)
		}
	}
}

// TestExitInFolder: in a folder, files that are not Pi sessions are
// skipped with a warning and the others reported, exit 0; a corrupt .gz
// there cannot be read, exit 2 after the others' report.
func TestExitInFolder(t *testing.T) {
	dir := t.TempDir()
	inputs := notSessions(t, dir)
	copyFile(t, corpusFile("v3/linear.jsonl"), filepath.Join(dir, "good.jsonl"), 0o644)
	aside := t.TempDir()
	for _, kind := range []string{"corrupt gz", "cut gz head"} {
		if err := os.Rename(inputs[kind], filepath.Join(aside, filepath.Base(inputs[kind]))); err != nil {
			t.Fatal(err)
		}
	}
	folderCommands := [][]string{{"stats"}, {"info"}, {"ls", "--all"}, {"search", "-c", "the"}}
	for _, cmd := range folderCommands {
		code, stdout, stderr := runPitool(context.Background(), append(cmd, dir)...)
		if code != exitOK || strings.Contains(stderr, "error:") || !strings.Contains(stderr, "skipped: not a Pi session") || stdout == "" {
			t.Errorf("%v on a folder with non-sessions: exit %d, want 0 with warnings\n%s%s", cmd, code, stdout, stderr)
		}
	}
	corrupt := filepath.Join(dir, filepath.Base(inputs["corrupt gz"]))
	if err := os.Rename(filepath.Join(aside, filepath.Base(corrupt)), corrupt); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range folderCommands {
		code, stdout, stderr := runPitool(context.Background(), append(cmd, dir)...)
		if code != exitUsage || strings.Count(stderr, "pitool: error: "+corrupt+": ") != 1 || stdout == "" {
			t.Errorf("%v on a folder with a corrupt .gz: exit %d, want 2, the report and one error naming it\n%s%s", cmd, code, stdout, stderr)
		}
	}
}
