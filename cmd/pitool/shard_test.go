package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/safefile"
	"golang.org/x/sys/unix"
)

// pathsToFleet returns the ways one folder can be named: as made, with a
// trailing slash and a dot, relative to the working directory, through a
// symlink, and through a bind mount where the test may mount (root).
func pathsToFleet(t *testing.T, dir string) map[string]string {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(cwd, dir)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{"absolute": dir, "dotted": dir + "/./", "relative": rel, "symlink": link}
	mnt := t.TempDir()
	if err := unix.Mount(dir, mnt, "", unix.MS_BIND, ""); err != nil {
		t.Logf("no bind mount here (%v): checking the other paths", err)
		return paths
	}
	t.Cleanup(func() { unix.Unmount(mnt, unix.MNT_DETACH) })
	paths["bind mount"] = mnt
	return paths
}

// shardOf returns which of n shards takes each file found under root, by
// its path inside root, and fails if a file falls in two.
func shardOf(t *testing.T, root string, n uint64) map[string]uint64 {
	t.Helper()
	got := map[string]uint64{}
	for k := uint64(0); k < n; k++ {
		targets, err := batchTargets([]string{root}, shard{k, n}, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			rel, err := filepath.Rel(root, tg.path)
			if err != nil {
				t.Fatal(err)
			}
			if prev, ok := got[rel]; ok {
				t.Fatalf("%s: %s is in shards %d and %d of %d", root, rel, prev, k, n)
			}
			got[rel] = k
		}
	}
	return got
}

// TestShardsPartitionWhateverThePath: for several N, the N shards of a
// folder are disjoint and cover every file, and each file is in the same
// shard whichever path names the folder, and when the file itself is named
// instead, and once it is archived as .jsonl.zst.
func TestShardsPartitionWhateverThePath(t *testing.T) {
	dir, orig := writeFleet(t, 60)
	paths := pathsToFleet(t, dir)
	for _, n := range []uint64{1, 2, 3, 7} {
		want := shardOf(t, dir, n)
		if len(want) != len(orig) {
			t.Fatalf("%d shards cover %d of %d files", n, len(want), len(orig))
		}
		for name, p := range paths {
			got := shardOf(t, p, n)
			for rel, k := range want {
				if g, ok := got[rel]; !ok || g != k {
					t.Errorf("N=%d, folder named by its %s path: %s in shard %d (found %v), want %d", n, name, rel, g, ok, k)
				}
			}
			if len(got) != len(want) {
				t.Errorf("N=%d, %s path: %d files, want %d", n, name, len(got), len(want))
			}
		}
		for rel, k := range want {
			for _, named := range []string{filepath.Join(dir, rel), filepath.Join(paths["relative"], rel)} {
				if !(shard{k, n}).takes(shardKey(named)) {
					t.Errorf("N=%d: %s named on the command line is not in shard %d", n, named, k)
				}
			}
			if !(shard{k, n}).takes(shardKey(filepath.Join(dir, rel) + ".zst")) {
				t.Errorf("N=%d: the archive of %s is not in its shard %d", n, rel, k)
			}
		}
	}
}

// nightlyTotals is the part of nightly's report the shard tests read.
type nightlyTotals struct {
	Totals map[string]int
	Files  []struct{ File, Action, Detail string }
}

func runNightlyJSON(t *testing.T, args ...string) nightlyTotals {
	t.Helper()
	code, out, errOut := runPitool(context.Background(), append([]string{"nightly"}, args...)...)
	if code != exitOK {
		t.Fatalf("nightly %v: exit %d\n%s", args, code, errOut)
	}
	var rep nightlyTotals
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	return rep
}

// fileState is what a run could change about a file.
type fileState struct {
	content string
	mode    fs.FileMode
	mtime   time.Time
}

// snapshot records every file under dir (sessions, backups, archives).
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	state := map[string]fileState{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		state[path] = fileState{string(b), info.Mode(), info.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

func checkUnchanged(t *testing.T, what string, before, after map[string]fileState) {
	t.Helper()
	for path, b := range before {
		if a, ok := after[path]; !ok || a != b {
			t.Errorf("%s: %s changed (still there: %v)", what, path, ok)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s: %s appeared", what, path)
		}
	}
}

// TestShardRerunChangesNothing runs the shards of a fleet (with a damaged
// file to repair) one after another, each touching only its own files, then
// runs one shard again: no file, backup or archive changes. The same holds
// for a run that archives.
func TestShardRerunChangesNothing(t *testing.T) {
	dir, orig := writeFleet(t, 60)
	damaged := filepath.Join(dir, "p0", "damaged.jsonl")
	copyFile(t, corpusFile("corrupt/joined-lines.jsonl"), damaged, 0o644)
	orig[damaged], _ = os.ReadFile(damaged)
	const n = 3
	owner := shardOf(t, dir, n)
	compacted := 0
	for k := range n {
		rep := runNightlyJSON(t, append(fleetFlags, "--shard", shardArg(k, n), dir)...)
		compacted += rep.Totals["compacted"]
		for _, f := range rep.Files {
			if rel, _ := filepath.Rel(dir, f.File); owner[rel] != uint64(k) {
				t.Errorf("shard %d/%d worked on %s of shard %d", k, n, rel, owner[rel])
			}
		}
		for path, b := range orig {
			rel, _ := filepath.Rel(dir, path)
			now, _ := os.ReadFile(path)
			if owner[rel] > uint64(k) && string(now) != string(b) {
				t.Errorf("shard %d/%d changed %s of shard %d", k, n, rel, owner[rel])
			}
		}
	}
	if _, err := os.Stat(damaged + ".bak"); err != nil || compacted == 0 {
		t.Fatalf("the first runs compacted %d files; the damaged one was not repaired: %v", compacted, err)
	}
	done := snapshot(t, dir)
	for k := range n {
		rep := runNightlyJSON(t, append(fleetFlags, "--shard", shardArg(k, n), dir)...)
		if rep.Totals["compacted"]+rep.Totals["repaired"]+rep.Totals["archived"] != 0 {
			t.Errorf("shard %d/%d again: %v", k, n, rep.Totals)
		}
		checkUnchanged(t, "shard "+shardArg(k, n)+" run again", done, snapshot(t, dir))
	}

	archiving := append(fleetFlags, "--archive-after", "1ns", "--shard", shardArg(1, n), dir)
	if rep := runNightlyJSON(t, archiving...); rep.Totals["archived"] == 0 {
		t.Fatalf("nothing archived: %v", rep.Totals)
	}
	archived := snapshot(t, dir)
	rep := runNightlyJSON(t, archiving...)
	if rep.Totals["archived"] != 0 {
		t.Errorf("archiving again: %v", rep.Totals)
	}
	checkUnchanged(t, "shard 1/3 archiving again", archived, snapshot(t, dir))
	for _, f := range rep.Files {
		if rel, _ := filepath.Rel(dir, f.File); owner[strings.TrimSuffix(rel, ".zst")] != 1 {
			t.Errorf("after archiving, shard 1/3 worked on %s", rel)
		}
	}
}

func shardArg(k, n int) string { return fmt.Sprintf("%d/%d", k, n) }

// TestLockedFileIsNotWritten: a file another pitool holds (its flock, as
// every writing step takes it) is left alone by nightly, reported as skipped,
// and written by the next run.
func TestLockedFileIsNotWritten(t *testing.T) {
	dir, orig := writeFleet(t, 40)
	defer func(w time.Duration) { safefile.LockWait = w }(safefile.LockWait)
	safefile.LockWait = 100 * time.Millisecond
	due := plannedStatus(t, append(fleetFlags, dir)...)
	var held string
	for path, status := range due {
		if status == "planned" {
			held = path
			break
		}
	}
	if held == "" {
		t.Fatalf("no file is due: %v", due)
	}
	unlock, err := safefile.Lock(held)
	if err != nil {
		t.Fatal(err)
	}
	rep := runNightlyJSON(t, append(fleetFlags, dir)...)
	unlock()
	now, _ := os.ReadFile(held)
	if string(now) != string(orig[held]) {
		t.Errorf("nightly wrote %s while another process held its lock", held)
	}
	for _, f := range rep.Files {
		if f.File == held && (f.Action != "skipped" || !strings.Contains(f.Detail, "locked by another process")) {
			t.Errorf("the held file is reported %q (%s), want skipped as locked", f.Action, f.Detail)
		}
	}
	rep = runNightlyJSON(t, append(fleetFlags, dir)...)
	if !checkAppended(t, held, orig[held]) {
		t.Errorf("the next run did not compact %s: %v", held, rep.Totals)
	}
}

// TestSameShardTwiceAtOnce runs two pitool processes on the same shard at
// the same time: both succeed (a file the other holds is skipped), every due
// file gets exactly one compaction, by one of them, and each file of the
// other shard is untouched.
func TestSameShardTwiceAtOnce(t *testing.T) {
	exe, err := exec.LookPath("pitool") // testscript.Main put it on $PATH
	if err != nil {
		t.Skip("pitool command not set up:", err)
	}
	dir, orig := writeFleet(t, 120)
	owner := shardOf(t, dir, 2)
	args := append(append([]string{"nightly", "-j", "2"}, fleetFlags...), "--shard", "0/2", dir)
	reports := make([]nightlyTotals, 2)
	var wg sync.WaitGroup
	for i := range reports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("run %d: %v\n%s", i, err, stderr.String())
			}
			if err := json.Unmarshal(out, &reports[i]); err != nil {
				t.Errorf("run %d report: %v", i, err)
			}
		}()
	}
	wg.Wait()
	compacted := 0
	for path, b := range orig {
		rel, _ := filepath.Rel(dir, path)
		if checkAppended(t, path, b) { // fails unless exactly one compaction was added
			compacted++
			if owner[rel] != 0 {
				t.Errorf("%s of shard 1 was compacted", rel)
			}
		}
	}
	if compacted == 0 {
		t.Fatal("nothing was compacted")
	}
	if n := reports[0].Totals["compacted"] + reports[1].Totals["compacted"]; n != compacted {
		t.Errorf("the two runs report %d compactions, the files hold %d", n, compacted)
	}
	t.Logf("%d files compacted: %d by one run, %d by the other", compacted, reports[0].Totals["compacted"], reports[1].Totals["compacted"])
}
