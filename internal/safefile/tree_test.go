package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestConfinedTreeRefusesAFolderSwappedForALink: after a folder search,
// a sub-folder of the folder named is swapped for a symlink to a folder
// outside it holding a file of the same name. Begin, AppendLine and
// WriteFile of the path found refuse it with ErrOutsideTree, and the file
// outside is untouched; a symlink that stays inside the folder is written
// through.
func TestConfinedTreeRefusesAFolderSwappedForALink(t *testing.T) {
	base := t.TempDir()
	tree, outside := filepath.Join(base, "tree"), filepath.Join(base, "victim")
	for _, d := range []string{filepath.Join(tree, "p"), filepath.Join(tree, "q"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const line = `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n"
	for _, f := range []string{filepath.Join(tree, "p", "s.jsonl"), filepath.Join(tree, "q", "s.jsonl"), filepath.Join(outside, "s.jsonl")} {
		if err := os.WriteFile(f, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := ConfineTree(tree); err != nil {
		t.Fatal(err)
	}
	// the swap, after the search
	os.RemoveAll(filepath.Join(tree, "p"))
	if err := os.Symlink(outside, filepath.Join(tree, "p")); err != nil {
		t.Fatal(err)
	}
	found := filepath.Join(tree, "p", "s.jsonl")
	stamp, err := StatStamp(found)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := Begin(found); !errors.Is(err, ErrOutsideTree) {
		if e != nil {
			e.Close()
		}
		t.Errorf("Begin through the swapped folder: %v, want ErrOutsideTree", err)
	}
	if err := AppendLine(found, stamp, []byte(line)); !errors.Is(err, ErrOutsideTree) {
		t.Errorf("AppendLine through the swapped folder: %v, want ErrOutsideTree", err)
	}
	err = WriteFile(filepath.Join(tree, "p", "s.jsonl.quarantine"), Options{}, func(w io.Writer) error {
		_, err := io.WriteString(w, "x\n")
		return err
	})
	if !errors.Is(err, ErrOutsideTree) {
		t.Errorf("WriteFile through the swapped folder: %v, want ErrOutsideTree", err)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "s.jsonl")); string(got) != line {
		t.Errorf("the file outside changed: %q", got)
	}
	if names, _ := os.ReadDir(outside); len(names) != 1 {
		t.Errorf("files created outside: %v", names)
	}

	// a link that stays in the folder is written through
	inside := filepath.Join(tree, "r")
	if err := os.Symlink(filepath.Join(tree, "q"), inside); err != nil {
		t.Fatal(err)
	}
	e, err := Begin(filepath.Join(inside, "s.jsonl"))
	if err != nil {
		t.Fatalf("Begin through a link inside the folder: %v", err)
	}
	e.Close()
}
