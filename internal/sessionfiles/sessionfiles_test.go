package sessionfiles

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExpandFindsSessionsRecursively(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"--p--/b.jsonl", "--p--/a.jsonl.zst", "--q--/c.jsonl.gz", "--q--/notes.txt", "x.jsonl.bak"} {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, nil, 0o644)
	}
	files, err := Expand([]string{dir, "-"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		if f.Path == "-" {
			rel = "-"
		}
		got = append(got, rel)
	}
	want := []string{"--p--/a.jsonl.zst", "--p--/b.jsonl", "--q--/c.jsonl.gz", "-"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	if files[0].Named || !files[3].Named {
		t.Errorf("Named flags wrong: %+v", files)
	}
}

func TestCwdFolderNameMatchesPi(t *testing.T) {
	cases := map[string]string{
		"/home/dev/project": "--home-dev-project--",
		`C:\Users\me`:       "--C--Users-me--",
		"/":                 "----",
	}
	for cwd, want := range cases {
		if got := CwdFolderName(cwd); got != want {
			t.Errorf("CwdFolderName(%q) = %q, want %q", cwd, got, want)
		}
	}
}

func TestAgentDirHonoursEnvironment(t *testing.T) {
	t.Setenv("PI_CODING_AGENT_DIR", "/tmp/agent")
	if d, _ := DefaultSessionsDir(); d != "/tmp/agent/sessions" {
		t.Errorf("DefaultSessionsDir = %q", d)
	}
}
