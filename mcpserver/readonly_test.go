package mcpserver

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestFolderUnchanged runs a session of calls of every tool, errors
// included, and finds the sessions folder as it was: the same names, bytes,
// modes and modification times, and no file created.
func TestFolderUnchanged(t *testing.T) {
	dir := v3Folder(t)
	secrets := sessionsFolder(t, map[string]string{"s.jsonl": "secrets/session.jsonl"})
	before := snapshot(t, dir) + snapshot(t, secrets)
	cs := connect(t, Options{Folders: []string{dir, secrets}})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_sessions", nil},
		{"list_sessions", map[string]any{"project": "/home/dev"}},
		{"search_sessions", map[string]any{"pattern": "test", "limit": 100}},
		{"search_sessions", map[string]any{"pattern": "AKIA", "branch": "active"}},
		{"search_sessions", map[string]any{"pattern": "a(", "regexp": true}},
		{"read_session", map[string]any{"session": "latest"}},
		{"read_session", map[string]any{"session": filepath.Join(secrets, "s.jsonl"), "offset": 100000}},
		{"read_session", map[string]any{"session": "nope"}},
		{"session_usage", map[string]any{"by": "session"}},
		{"session_usage", map[string]any{"project": "/home/dev"}},
	} {
		callRaw(t, cs, c.tool, c.args)
	}
	if after := snapshot(t, dir) + snapshot(t, secrets); after != before {
		t.Fatalf("the folder changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// snapshot describes every file and folder under dir: name, mode, size,
// modification time and a digest of the bytes.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var s string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		s += fmt.Sprintf("%s %v %d %d %s\n", p, info.Mode(), info.Size(), info.ModTime().UnixNano(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
