package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/nightstate"
)

// nightlyAt runs nightly over dir/sessions with the report in dir and returns
// the report and stderr.
func nightlyAt(t *testing.T, dir string, extra ...string) (loadReport, string) {
	t.Helper()
	args := append([]string{"nightly", "-j", "2", "--min-idle", "0", "--report", filepath.Join(dir, "report.json")}, extra...)
	code, _, errOut := runPitool(context.Background(), append(args, filepath.Join(dir, "sessions"))...)
	if code != 0 {
		t.Fatalf("nightly: exit %d: %s", code, errOut)
	}
	return readLoadReport(t, filepath.Join(dir, "report.json")), errOut
}

// rememberedFiles lists the files a report took from the state file.
func rememberedFiles(rep loadReport) map[string]bool {
	got := map[string]bool{}
	for _, f := range rep.Files {
		if f.Remembered {
			got[f.File] = true
		}
	}
	return got
}

// TestNightlyStateNeverTrustedOverTheFile: the state file saves a stat per
// unchanged file, and any change to a file, to the state file or to the
// options means the full work: a file rewritten with its size and mtime
// kept (ctime differs), a file replaced by a copy (inode differs), a state
// file that is corrupt or deleted, another --context-window.
func TestNightlyStateNeverTrustedOverTheFile(t *testing.T) {
	dir := t.TempDir()
	rel := writeSessions(t, dir, 6)
	paths := make([]string, len(rel))
	for i, p := range rel {
		paths[i] = filepath.Join(dir, p)
	}
	time.Sleep(nightstate.Settle)
	if rep, _ := nightlyAt(t, dir); len(rememberedFiles(rep)) != 0 || rep.Totals["not-due"] != 6 {
		t.Fatalf("first run: %+v", rep)
	}
	if rep, errOut := nightlyAt(t, dir); len(rememberedFiles(rep)) != 6 || rep.Remembered != 6 || !strings.Contains(errOut, "6 unchanged since the last run") {
		t.Fatalf("second run remembered %d of 6: %s", rep.Remembered, errOut)
	}

	damageKeepingStat(t, paths[0])
	replaceWithCopy(t, paths[1])
	rep, _ := nightlyAt(t, dir)
	got := rememberedFiles(rep)
	if got[paths[0]] || got[paths[1]] || len(got) != 4 {
		t.Errorf("after changing two files, remembered %v; want the four others", got)
	}
	for _, f := range rep.Files {
		if f.File == paths[0] && f.Action != "not-due" || rep.Totals["repaired"] != 1 {
			t.Errorf("the damaged file was not repaired: %+v, totals %v", f, rep.Totals)
		}
	}

	state := filepath.Join(dir, "report.json"+nightstate.Suffix)
	if err := os.WriteFile(state, []byte(`{"version":1,"files":[{"file":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, errOut := nightlyAt(t, dir); rep.Remembered != 0 || !strings.Contains(errOut, "state file") {
		t.Errorf("corrupt state file: %d remembered, stderr %q", rep.Remembered, errOut)
	}
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	if rep, _ := nightlyAt(t, dir); rep.Remembered != 0 || rep.Totals["files"] != 6 {
		t.Errorf("deleted state file: %d remembered of %d", rep.Remembered, rep.Totals["files"])
	}
	if rep, _ := nightlyAt(t, dir, "--context-window", "150000"); rep.Remembered != 0 {
		t.Errorf("other --context-window: %d remembered", rep.Remembered)
	}
}

// damageKeepingStat breaks the last line of path without changing its size
// or mtime: only the ctime tells.
func damageKeepingStat(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	end := bytes.LastIndexByte(data[:len(data)-1], '}')
	data[end] = ' '
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// replaceWithCopy renames a byte-identical copy of path over it, with its
// mtime: only the inode tells.
func replaceWithCopy(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestNightlyStateSeesAnInterruptedArchive: a file the state file remembers
// is worked on again once an interrupted archive (X.jsonl.zst beside it)
// appears, though no stat asks (the walk's list of the folder tells): the
// archive, which does not hold the file's bytes, is removed.
func TestNightlyStateSeesAnInterruptedArchive(t *testing.T) {
	dir := t.TempDir()
	rel := writeSessions(t, dir, 3)
	path := filepath.Join(dir, rel[1])
	time.Sleep(nightstate.Settle)
	nightlyAt(t, dir)
	if rep, _ := nightlyAt(t, dir); !rememberedFiles(rep)[path] {
		t.Fatalf("second run did not remember %s: %+v", path, rep)
	}
	if err := os.WriteFile(path+".zst", []byte("not an archive of it"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _ := nightlyAt(t, dir)
	for _, f := range rep.Files {
		if f.File == path && (f.Remembered || f.Action != actRolledBack) {
			t.Errorf("with an interrupted archive beside it: %+v", f)
		}
	}
	if _, err := os.Lstat(path + ".zst"); err == nil {
		t.Error("the interrupted archive is left")
	}
}
