package sessionfiles

import (
	"os"
	"path/filepath"
	"strings"
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

// TestCwdFolderNameIsOneFolder checks what keeps a clone or fork inside
// Pi's sessions folder whatever cwd a session claims: the name is always a
// single path element, and never "." or "..", so joining it to the sessions
// folder cannot climb out of it or land in it.
func TestCwdFolderNameIsOneFolder(t *testing.T) {
	for _, cwd := range []string{"", ".", "..", "/..", "../../etc", "/a/../../b", `..\..\x`, "C:..", "a/./b",
		"../../../../../../tmp/x", "/home/a\nb", "/home/a\x00b", "//", "/.../..", "-/..", "--/../--"} {
		name := CwdFolderName(cwd)
		if name == "." || name == ".." || strings.ContainsAny(name, `/\`) || filepath.Base(name) != name ||
			filepath.Dir(filepath.Join("/sessions", name)) != "/sessions" {
			t.Errorf("CwdFolderName(%q) = %q: not one folder inside the sessions folder", cwd, name)
		}
	}
}

func TestAgentDirHonoursEnvironment(t *testing.T) {
	t.Setenv("PI_CODING_AGENT_DIR", "/tmp/agent")
	if d, _ := DefaultSessionsDir(); d != "/tmp/agent/sessions" {
		t.Errorf("DefaultSessionsDir = %q", d)
	}
}

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks not available: %v", err)
	}
}

// rels lists the files relative to dir, with O for those marked Outside.
func rels(dir string, files []File) []string {
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		if f.Outside {
			rel += " O"
		}
		got = append(got, rel)
	}
	return got
}

func TestExpandFollowsSymlinksOnceAndMarksOutside(t *testing.T) {
	base := t.TempDir()
	disk, root := filepath.Join(base, "disk"), filepath.Join(base, "root")
	touch(t, filepath.Join(disk, "--far--", "f.jsonl"))
	touch(t, filepath.Join(disk, "lone.jsonl"))
	touch(t, filepath.Join(root, "--p--", "a.jsonl"))
	symlink(t, filepath.Join(disk, "--far--"), filepath.Join(root, "--far--"))    // a project folder on another disk
	symlink(t, filepath.Join(disk, "lone.jsonl"), filepath.Join(root, "l.jsonl")) // a file elsewhere
	symlink(t, "a.jsonl", filepath.Join(root, "--p--", "b.jsonl"))                // a second name for a.jsonl
	symlink(t, "..", filepath.Join(root, "--p--", "loop"))                        // a loop back to root
	symlink(t, "nowhere.jsonl", filepath.Join(root, "dead.jsonl"))                // dangling
	symlink(t, filepath.Join(root, "--p--"), filepath.Join(root, "--alias--"))    // an absolute link inside
	touch(t, filepath.Join(root, "--q--", "z.data"))
	symlink(t, filepath.Join(root, "--q--", "z.data"), filepath.Join(root, "z.jsonl"))
	for _, dir := range []string{root, relTo(t, root)} {
		files, err := Expand([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(rels(dir, files), ", ")
		want := "--far--/f.jsonl O, --p--/a.jsonl, dead.jsonl, l.jsonl O, z.jsonl"
		if got != want {
			t.Errorf("Expand(%s): got %s\nwant %s", dir, got, want)
		}
	}
}

// relTo returns dir relative to the working directory, which it makes dir's parent.
func relTo(t *testing.T, dir string) string {
	t.Chdir(filepath.Dir(dir))
	return filepath.Base(dir)
}

func TestExpandOfSymlinkedRootIsInside(t *testing.T) {
	base := t.TempDir()
	touch(t, filepath.Join(base, "disk", "sessions", "--p--", "a.jsonl"))
	link := filepath.Join(base, "sessions")
	symlink(t, filepath.Join(base, "disk", "sessions"), link)
	files, err := Expand([]string{link})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rels(link, files), ", "); got != "--p--/a.jsonl" {
		t.Errorf("got %s", got)
	}
}
