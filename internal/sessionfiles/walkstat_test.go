//go:build unix

package sessionfiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWalkStatsManyFiles: in a folder of many files, listed with getdents
// and stat'ed through the folder's handle, every file is listed once with
// its own stat, in order; two hard links to one file are listed
// once, under the first name; a symlink to a file listed already adds
// nothing; and a FIFO with a session's name is listed as special, not
// stat'ed as a file.
func TestWalkStatsManyFiles(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 64 {
		name := fmt.Sprintf("s%03d.jsonl", i)
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, i), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
	}
	if err := os.Link(filepath.Join(dir, "s001.jsonl"), filepath.Join(dir, "t-link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s002.jsonl", filepath.Join(dir, "u-sym.jsonl")); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, "v-fifo.jsonl"))
	files, err := Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, "v-fifo.jsonl")
	if len(files) != len(want) {
		t.Fatalf("%d files listed, want %d: %+v", len(files), len(want), files)
	}
	for i, f := range files {
		if got := filepath.Base(f.Path); got != want[i] {
			t.Errorf("file %d: %s, want %s", i, got, want[i])
		}
		if f.Special != "" {
			continue
		}
		if f.Info == nil || f.Info.Size() != int64(i) || f.Info.Name() != want[i] {
			t.Errorf("%s: stat %v, want a size of %d", f.Path, f.Info, i)
		}
	}
	if last := files[len(files)-1]; last.Special == "" || last.Info != nil {
		t.Errorf("the FIFO is listed as %+v", last)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
}

// TestSwappedFolderIsFollowedAsALink: a folder the listing called a folder
// but that is a symlink when the walk opens it (swapped meanwhile) is not
// searched as part of the tree: it joins the symlinks, followed after the
// direct tree, and what it leads to outside the root is marked Outside.
func TestSwappedFolderIsFollowedAsALink(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, "x.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	real, err := realPath(root)
	if err != nil {
		t.Fatal(err)
	}
	w := &walker{realRoot: real, dirs: map[fileKey]bool{}, files: map[fileKey]int{}, match: Match{Name: IsSessionName}}
	f, err := openFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	d := newEntry(f.path, "sub", fs.ModeDir)
	if err := w.enter(d, readSub(&subfolder{parent: f, d: d, depth: 1}, w.match, &w.buf), false, 1); err != nil {
		t.Fatal(err)
	}
	wantFollowedAsLink(t, w)
}

// wantFollowedAsLink checks that w, having met a folder swapped for a link
// to a folder outside its root holding x.jsonl, listed nothing in the tree,
// kept the link, and lists x.jsonl as Outside once it follows the link.
func wantFollowedAsLink(t *testing.T, w *walker) {
	t.Helper()
	if len(w.out) != 0 || len(w.links) != 1 {
		t.Fatalf("the swapped folder was searched in the tree: out %+v, links %+v", w.out, w.links)
	}
	if err := w.follow(w.links[0]); err != nil {
		t.Fatal(err)
	}
	if len(w.out) != 1 || !w.out[0].Outside {
		t.Errorf("followed as a link: %+v, want x.jsonl marked Outside", w.out)
	}
}
