package sessionfiles

import "testing"

// TestFileName: Pi names a session file from its header's timestamp and id,
// and the id reads back from the name, compressed or not.
func TestFileName(t *testing.T) {
	name := FileName("2026-01-02T03:04:05.678Z", "01a22eed-84e3-73c5-ba1b-23bcc68e1596")
	if want := "2026-01-02T03-04-05-678Z_01a22eed-84e3-73c5-ba1b-23bcc68e1596.jsonl"; name != want {
		t.Fatalf("FileName = %s, want %s", name, want)
	}
	for _, n := range []string{name, "/a/b/" + name + ".gz", name + ".zst"} {
		if id, ok := IDFromFileName(n); !ok || id != "01a22eed-84e3-73c5-ba1b-23bcc68e1596" {
			t.Errorf("IDFromFileName(%s) = %q, %v", n, id, ok)
		}
	}
	for _, n := range []string{"session.jsonl", "x_.jsonl", "x_-a.jsonl", "x_a b.jsonl"} {
		if id, ok := IDFromFileName(n); ok {
			t.Errorf("IDFromFileName(%s) = %q, want none: Pi refuses that id", n, id)
		}
	}
	// A name FileName did not write holds no id, however its tail reads.
	for _, n := range []string{"missing_header.jsonl", "notes_2026.jsonl", "2026-01-02_x.jsonl"} {
		if id, ok := IDFromFileName(n); ok {
			t.Errorf("IDFromFileName(%s) = %q, want none: not Pi's <timestamp>_<id>", n, id)
		}
	}
}

// TestCwdFromFolderName reads back what CwdFolderName writes, where the cwd
// holds no '-'.
func TestCwdFromFolderName(t *testing.T) {
	for _, cwd := range []string{"/home/dev/project", "/x"} {
		if got, ok := CwdFromFolderName(CwdFolderName(cwd)); !ok || got != cwd {
			t.Errorf("CwdFromFolderName(CwdFolderName(%s)) = %q, %v", cwd, got, ok)
		}
	}
	for _, dir := range []string{"project", "----", "--x", "."} {
		if got, ok := CwdFromFolderName(dir); ok {
			t.Errorf("CwdFromFolderName(%s) = %q, want none", dir, got)
		}
	}
}
