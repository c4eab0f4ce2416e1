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
)

// folderGolden is testref.Golden for a reference answer about a folder the
// test builds in a temporary directory: the golden names that directory DIR,
// so that -update writes the same bytes every time.
func folderGolden(t *testing.T, name, dir string, args ...string) []byte {
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
	out = bytes.ReplaceAll(out, []byte(dir), []byte("DIR"))
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
