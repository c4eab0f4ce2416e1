//go:build unix

package sessionfiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadAheadWalksAsOneCore: a walk with readers listing and stat'ing
// folders ahead of it finds what a walk on one core finds, in the same
// order, with the same stats and marks: nested folders (more than
// readAhead beside each other), names that sort apart from their paths,
// hard links (listed once, under the first name), symlinks to files and to
// folders inside and outside the root, a symlink loop, a dangling link and
// a FIFO.
func TestReadAheadWalksAsOneCore(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	for i := range 3 * readAhead {
		touch(t, filepath.Join(root, fmt.Sprintf("p%d", i), fmt.Sprintf("s%d.jsonl", i)))
		touch(t, filepath.Join(root, fmt.Sprintf("p%d", i), "deep", "er", "d.jsonl"))
	}
	for _, name := range []string{"a/x.jsonl", "a-b/y.jsonl", "a.b/z.jsonl.gz", "a b/w.jsonl.zst", "top.jsonl", "notes.txt"} {
		touch(t, filepath.Join(root, name))
	}
	touch(t, filepath.Join(elsewhere, "out.jsonl"))
	must(t, os.Link(filepath.Join(root, "p3", "s3.jsonl"), filepath.Join(root, "p1", "hard.jsonl")))
	must(t, os.Link(filepath.Join(root, "a", "x.jsonl"), filepath.Join(root, "a-b", "hard.jsonl")))
	must(t, os.Symlink("../p2/s2.jsonl", filepath.Join(root, "a", "to-s2.jsonl")))
	must(t, os.Symlink("../p4", filepath.Join(root, "a", "to-p4")))
	must(t, os.Symlink(elsewhere, filepath.Join(root, "p5", "out")))
	must(t, os.Symlink("..", filepath.Join(root, "p6", "loop")))
	must(t, os.Symlink("gone.jsonl", filepath.Join(root, "p7", "dangling.jsonl")))
	mkfifo(t, filepath.Join(root, "p8", "fifo.jsonl"))
	for _, m := range []Match{{Name: IsSessionName}, {Name: IsSessionName, EveryPath: true}} {
		serial, err := walkWith(root, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(serial) < 6*readAhead {
			t.Fatalf("EveryPath %v: %d files found: %v", m.EveryPath, len(serial), serial)
		}
		for range 5 {
			r := startReadersN(m, 3)
			ahead, err := walkWith(root, m, r)
			r.stop()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ahead, serial) {
				t.Fatalf("EveryPath %v: read ahead\n%v\nserial\n%v", m.EveryPath, ahead, serial)
			}
		}
	}
}

// TestReadAheadStopsAtTheFirstError: a walk that fails in a folder while
// its readers are reading the folders beside it ahead returns the error a
// walk on one core returns, and leaves no reader at a closed folder (go
// test -race).
func TestReadAheadStopsAtTheFirstError(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", strings.Repeat("d/", MaxDepth+1))
	touch(t, filepath.Join(deep, "x.jsonl"))
	for i := range 4 * readAhead {
		touch(t, filepath.Join(root, fmt.Sprintf("b%02d", i), "s.jsonl"))
	}
	m := Match{Name: IsSessionName}
	_, serr := walkWith(root, m, nil)
	if serr == nil || !strings.Contains(serr.Error(), "nested more than") {
		t.Fatalf("serial walk: %v, want the depth guard", serr)
	}
	for range 5 {
		r := startReadersN(m, 3)
		_, err := walkWith(root, m, r)
		r.stop()
		if err == nil || err.Error() != serr.Error() {
			t.Fatalf("read ahead: %v, want %v", err, serr)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadAheadSwappedFolderIsALink: a subfolder a reader opens that is a
// symlink by then (listed as a folder, swapped meanwhile) is not searched
// as part of the tree: it joins the links, and what it leads to outside
// the root is marked Outside.
func TestReadAheadSwappedFolderIsALink(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	touch(t, filepath.Join(elsewhere, "x.jsonl"))
	must(t, os.Symlink(elsewhere, filepath.Join(root, "sub")))
	real, err := realPath(root)
	if err != nil {
		t.Fatal(err)
	}
	m := Match{Name: IsSessionName}
	r := startReadersN(m, 2)
	defer r.stop()
	w := &walker{realRoot: real, dirs: map[fileKey]bool{}, files: map[fileKey]int{}, match: m, readers: r}
	f, err := openFolder(root)
	if err != nil {
		t.Fatal(err)
	}
	listed := &listing{f: f, entries: []entry{newEntry(f.path, "sub", fs.ModeDir)}, statAt: -1}
	if err := w.search(listed, false, 0); err != nil {
		t.Fatal(err)
	}
	wantFollowedAsLink(t, w)
}
