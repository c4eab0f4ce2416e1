package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestExpand: a folder is searched, a path that cannot be expanded is a
// target with its error under KeepErrors and Expand's error otherwise.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "b.jsonl.gz", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.jsonl")
	got, err := Expand([]string{dir, missing}, ExpandOptions{KeepErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, tg := range got {
		paths = append(paths, filepath.Base(tg.Path))
	}
	if !slices.Equal(paths, []string{"a.jsonl", "b.jsonl.gz", "missing.jsonl"}) || got[0].Named || got[0].Root != dir || got[2].Err == nil {
		t.Errorf("Expand = %+v", got)
	}
	if _, err := Expand([]string{missing}, ExpandOptions{}); err == nil {
		t.Error("Expand of a missing path without KeepErrors: no error")
	}
}

// TestJudge is the read rule: named or unreadable fails, a non-session found
// in a folder is skipped, another error found in a folder is skipped as
// damaged.
func TestJudge(t *testing.T) {
	ns := &jsonl.NotSessionError{File: "x", Reason: "binary data at byte 0"}
	perm := &os.PathError{Op: "open", Path: "x", Err: os.ErrPermission}
	damaged := errors.New("parent cycle")
	for _, c := range []struct {
		named bool
		err   error
		want  Verdict
	}{
		{true, ns, Fail}, {false, ns, SkipNotSession}, {false, perm, Fail},
		{false, fmt.Errorf("x: %w", jsonl.ErrDecompress), Fail}, {false, damaged, SkipDamaged}, {true, damaged, Fail},
	} {
		if got := Judge(c.named, c.err); got != c.want {
			t.Errorf("Judge(%v, %v) = %v, want %v", c.named, c.err, got, c.want)
		}
	}
}

// TestRunInOrder: results are reported in the targets' order on any number
// of workers, and the first error report returns stops the run.
func TestRunInOrder(t *testing.T) {
	targets := Named([]string{"a", "b", "c", "d", "e"})
	for _, jobs := range []int{0, 1, 3} {
		var got []string
		err := Run(context.Background(), targets, Options{Jobs: jobs}, func(_ context.Context, tg Target) string {
			return tg.Path + "!"
		}, func(tg Target, r string) error {
			got = append(got, r)
			if tg.Path == "d" {
				return errors.New("stop")
			}
			return nil
		})
		if err == nil || err.Error() != "stop" || !slices.Equal(got, []string{"a!", "b!", "c!", "d!"}) {
			t.Errorf("jobs %d: reported %v, %v", jobs, got, err)
		}
	}
}

// TestRunCancelled: a cancelled run works on no more targets and returns
// the context's error.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Each(ctx, Named([]string{"a", "b", "c"}), Options{}, func(Target) error {
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("Each after cancel: %d targets, %v", n, err)
	}
}
