package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestNightlyInterrupt stops a nightly run mid-way: exit 130, every file the
// original or the original plus one entry, and a report that says so.
func TestNightlyInterrupt(t *testing.T) {
	dir, orig := writeFleet(t, 40)
	marks := t.TempDir()
	t.Setenv("MARKS", marks)
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithCancel(context.Background())
	go cancelAfterMarks(marks, 5, cancel)
	args := append([]string{"nightly", "-j", "2", "--even-if-not-due", "--summarizer", "command", "--command", slowCommand, "--report", report}, fleetFlags...)
	code, _, errOut := runPitool(ctx, append(args, dir)...)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, exitInterrupted, errOut)
	}
	done := 0
	for file, data := range orig {
		if checkAppended(t, file, data) {
			done++
		}
	}
	var rep struct {
		Interrupted bool
		Totals      map[string]int
	}
	data, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("report: %v %s", err, data)
	}
	if !rep.Interrupted || rep.Totals["compacted"] != done || done == 0 || done == len(orig) {
		t.Errorf("report %+v, %d files compacted", rep, done)
	}
}
