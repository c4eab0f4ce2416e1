package sessionfiles

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// writeSession writes a one-message session of id and cwd, last active at ts.
func writeSession(t *testing.T, dir, name, id, cwd, ts string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	body := `{"type":"session","version":3,"id":"` + id + `","timestamp":"` + ts + `","cwd":"` + cwd + `"}` + "\n" +
		`{"type":"message","id":"a1","parentId":null,"timestamp":"` + ts + `","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	old := writeSession(t, dir, "a_aaaa1111.jsonl", "aaaa1111", "/p/one", "2026-01-01T00:00:00.000Z")
	newer := writeSession(t, dir, "b_aaab2222.jsonl", "aaab2222", "/p/two", "2026-02-01T00:00:00.000Z")
	renamed := writeSession(t, dir, "c_other.jsonl", "cccc3333", "/p/one", "2025-01-01T00:00:00.000Z")
	opts := RefOptions{Dir: dir}
	for _, tc := range []struct {
		ref, cwd, want string
	}{
		{"aaaa1111", "", old},
		{"aaab", "", newer},
		{"cccc", "", renamed}, // the header's id, not the file name
		{Latest, "", newer},
		{Latest, "/p/one", old},
		{"-", "", "-"},
		{"x/y", "", "x/y"},               // a path, kept for open to fail on
		{"nope.jsonl", "", "nope.jsonl"}, // likewise
	} {
		opts.Cwd = tc.cwd
		got, err := Resolve(context.Background(), tc.ref, opts)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q, cwd %q) = %q, %v; want %q", tc.ref, tc.cwd, got, err, tc.want)
		}
	}
}

func TestResolveRefusesGuesses(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "a.jsonl", "aaaa1111", "/p", "2026-01-01T00:00:00.000Z")
	writeSession(t, dir, "b.jsonl", "aaab2222", "/p", "2026-02-01T00:00:00.000Z")
	_, err := Resolve(context.Background(), "aaa", RefOptions{Dir: dir})
	var ae *AmbiguousError
	if !errors.As(err, &ae) || ae.Count != 2 || ae.Candidates[0].ID != "aaab2222" {
		t.Fatalf("ambiguous prefix: %v, want an AmbiguousError listing the newest first", err)
	}
	_, err = Resolve(context.Background(), "zzz", RefOptions{Dir: dir})
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("unknown id: %v, want a NotFoundError that is ErrNotExist", err)
	}
	_, err = Resolve(context.Background(), Latest, RefOptions{Dir: dir, Cwd: "/elsewhere"})
	if !errors.As(err, &nf) {
		t.Fatalf("latest of a project without sessions: %v, want a NotFoundError", err)
	}
}

func TestResolvePathWins(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "a.jsonl", "latest00", "/p", "2026-01-01T00:00:00.000Z")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("latest", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Resolve(context.Background(), Latest, RefOptions{Dir: dir}); err != nil || got != "latest" {
		t.Fatalf("a file named latest: got %q, %v; want the file", got, err)
	}
}

// TestResolvePrefersTheProject: of several sessions a prefix matches, the
// one of the project (as Pi prefers the current project's) is taken.
func TestResolvePrefersTheProject(t *testing.T) {
	dir := t.TempDir()
	here := writeSession(t, dir, "a.jsonl", "aaaa1111", "/p/here", "2026-01-01T00:00:00.000Z")
	writeSession(t, dir, "b.jsonl", "aaab2222", "/p/there", "2026-02-01T00:00:00.000Z")
	got, err := Resolve(context.Background(), "aaa", RefOptions{Dir: dir, Cwd: "/p/here"})
	if err != nil || got != here {
		t.Fatalf("got %q, %v; want the project's session %q", got, err, here)
	}
}
