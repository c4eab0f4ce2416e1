package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// folderGolden is testref.Golden for a reference answer about a folder the
// test builds in a temporary directory: the golden names that directory DIR,
// so that -update writes the same bytes every time.
func folderGolden(t *testing.T, name, dir string, args ...string) []byte {
	t.Helper()
	return folderGoldenOf(t, name, dir, func(b []byte) []byte { return b }, args...)
}

// folderGoldenOf is folderGolden keeping keep(answer) of the reference's
// answer, for an answer too large to keep whole.
func folderGoldenOf(t *testing.T, name, dir string, keep func([]byte) []byte, args ...string) []byte {
	t.Helper()
	path := golden(name)
	if !*testref.Update {
		out, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run the test with -update to produce it from pi-ref)", err)
		}
		return out
	}
	out, err := testref.Run(args...)
	if err != nil {
		t.Fatal(err)
	}
	out = keep(bytes.ReplaceAll(out, []byte(dir), []byte("DIR")))
	err = safefile.WriteFile(path, safefile.Options{}, func(w io.Writer) error { _, err := w.Write(out); return err })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// untimedSession is a session with no timestamp at all, so that Pi's
// "modified" falls back to the file's modification time.
func untimedSession(id string) string {
	return `{"type":"session","version":3,"id":"` + id + `","cwd":"/home/dev/project"}` + "\n" +
		`{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"hello"}}` + "\n"
}

// TestInfoFileDateRoundsAsPi gives sessions without timestamps modification
// times just below, at and above half a millisecond (as Node's float64 sees
// them), and checks that pitool info's "modified" is Pi's, from pi-ref ls
// (pi-ref info reads a fresh copy, whose time is now).
func TestInfoFileDateRoundsAsPi(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	nsecs := []int{123000001, 123499877, 123499878, 123500000, 123999999}
	for i, nsec := range nsecs {
		path := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		if err := os.WriteFile(path, []byte(untimedSession(fmt.Sprintf("ns-%d", nsec))), 0o600); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(nsec))
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	var want []piInfoFields
	if err := json.Unmarshal(folderGolden(t, "untimed.ls.json", dir, "ls", dir), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(nsecs) {
		t.Fatalf("pi-ref lists %d sessions, want %d", len(want), len(nsecs))
	}
	byID := map[string]piInfoFields{}
	for _, w := range want {
		byID[w.ID] = w
	}
	for i, nsec := range nsecs {
		var got piInfoFields
		json.Unmarshal(pitoolOut(t, "info", "--json", filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))), &got)
		if w := byID[fmt.Sprintf("ns-%d", nsec)]; got != w {
			t.Errorf("info s%d.jsonl:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

// writeCompressed writes the corpus file rel, compressed, to path.
func writeCompressed(t *testing.T, rel, path string, comp jsonl.Compression) {
	t.Helper()
	data, err := os.ReadFile(testref.Corpus(rel))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := jsonl.NewWriter(&buf, comp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// lsFields are the fields of an ls row compared with Pi's, with the path
// written relative to DIR.
type lsFields struct {
	piInfoFields
	Path     string
	Archived bool
}

func lsJSON(t *testing.T, dir string, args ...string) []lsFields {
	t.Helper()
	var rows []lsFields
	out := bytes.ReplaceAll(pitoolOut(t, append(append([]string{"ls", "--json"}, args...), dir)...), []byte(dir), []byte("DIR"))
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestLsHidesArchivesAsPi lists a folder of plain sessions and archives (a
// .jsonl.zst as nightly writes, a .jsonl.gz, and a .jsonl holding gzip
// bytes): pitool ls agrees row by row with pi-ref ls, which lists none of
// the three, and ls --all adds exactly them, marked archived.
func TestLsHidesArchivesAsPi(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range []string{"v3/linear.jsonl", "v3/branched.jsonl", "v3/agent-run.jsonl"} {
		data, err := os.ReadFile(testref.Corpus(rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(rel)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeCompressed(t, "v3/crashed.jsonl", filepath.Join(dir, "crashed.jsonl.zst"), jsonl.Zstd)
	writeCompressed(t, "real/large-session.jsonl", filepath.Join(dir, "large-session.jsonl.gz"), jsonl.Gzip)
	writeCompressed(t, "real/before-compaction.jsonl", filepath.Join(dir, "packed.jsonl"), jsonl.Gzip)
	var want []lsFields
	if err := json.Unmarshal(folderGolden(t, "archives.ls.json", dir, "ls", dir), &want); err != nil {
		t.Fatal(err)
	}
	got := lsJSON(t, dir)
	if len(got) != len(want) || len(want) != 3 {
		t.Fatalf("ls lists %d sessions, pi-ref %d, want 3", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	archives := map[string]bool{"DIR/crashed.jsonl.zst": true, "DIR/large-session.jsonl.gz": true, "DIR/packed.jsonl": true}
	all := lsJSON(t, dir, "--all")
	if len(all) != len(want)+len(archives) {
		t.Fatalf("ls --all lists %d sessions, want %d", len(all), len(want)+len(archives))
	}
	listed := 0
	for _, row := range all {
		if row.Archived != archives[row.Path] {
			t.Errorf("ls --all: %s archived=%v", row.Path, row.Archived)
		}
		if !row.Archived {
			if row != want[listed] {
				t.Errorf("ls --all row %s out of Pi's order or changed: %+v", row.Path, row)
			}
			listed++
		}
	}
}
