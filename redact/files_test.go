package redact

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestCheckFiles lists what a secret check reads under a folder: names
// with .jsonl or .quarantine, and other files that start with a session
// line; not notes, not other JSON, not a FIFO.
func TestCheckFiles(t *testing.T) {
	dir := t.TempDir()
	entry := `{"type":"message","id":"a","parentId":null}` + "\n"
	files := map[string]string{
		"a/s.jsonl": entry, "a/s.jsonl.bak": "", "a/s.jsonl.bak.3": "x", "a/s.jsonl.zst": "",
		"a/out.quarantine": "garbage", "a/out.quarantine.2": "", "a/.s.jsonl.tmp-99": "",
		"a/renamed": "\n\n" + entry, "a/long": `{"type":"message","text":"` + strings.Repeat("x", sniffLimit) + `"}`,
		"a/notes.txt": "hello", "a/package.json": `{"name":"x"}`, "a/array": `[{"type":"x"}]`,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a/fifo"), 0o600); err != nil {
		t.Logf("no FIFO: %v", err)
	}
	got, err := CheckFiles([]string{dir, filepath.Join(dir, "a/notes.txt")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(dir, got[i])
	}
	want := []string{"a/.s.jsonl.tmp-99", "a/long", "a/out.quarantine", "a/out.quarantine.2", "a/renamed",
		"a/s.jsonl", "a/s.jsonl.bak", "a/s.jsonl.bak.3", "a/s.jsonl.zst", "a/notes.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
