package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/pitool/pitool/internal/testref"
)

// piTree is pi-ref tree's answer: the rows in Pi's order and the active leaf.
type piTree struct {
	LeafID string `json:"leafId"`
	Rows   []struct {
		ID    string  `json:"id"`
		Label *string `json:"label"`
	} `json:"rows"`
}

// TestTreeTextShowsLabelsAndActive draws branched.jsonl at the default width
// ($COLUMNS), a narrow one and with --ids within a narrow --width, and checks each drawn row against Pi's tree
// rows (same order, as TestTreeMatchesPi checks for --json): every label and
// the active marker shown, only previews clipped, and with --ids each row's
// id is Pi's.
func TestTreeTextShowsLabelsAndActive(t *testing.T) {
	rel := "v3/branched.jsonl"
	var want piTree
	if err := json.Unmarshal(testref.Golden(t, golden(goldenName(rel, "tree")), "tree", testref.Corpus(rel)), &want); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COLUMNS", "100") // the default: the terminal's width
	for _, args := range [][]string{{}, {"--width", "40"}, {"--ids", "--width", "30"}} {
		width := 100
		if len(args) >= 2 {
			width, _ = strconv.Atoi(args[len(args)-1])
		}
		out := string(pitoolOut(t, append(append([]string{"tree"}, args...), testref.Corpus(rel))...))
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(want.Rows) {
			t.Fatalf("tree %v: %d rows, Pi has %d", args, len(lines), len(want.Rows))
		}
		shown := 0
		for k, row := range want.Rows {
			line := lines[k]
			if row.Label != nil {
				if !strings.Contains(line, "  ["+*row.Label+"]") {
					t.Errorf("tree %v row %d: label %q not shown: %s", args, k, *row.Label, line)
				}
				shown++
			}
			if active := strings.HasSuffix(line, "  <- active"); active != (row.ID == want.LeafID) {
				t.Errorf("tree %v row %d (%s): active marker %v: %s", args, k, row.ID, active, line)
			} else if active {
				shown++
			}
			if n := runewidth.StringWidth(line); n > width {
				t.Errorf("tree %v row %d: %d characters, more than %d: %s", args, k, n, width, line)
			}
			if len(args) > 0 && args[0] == "--ids" && strings.Fields(line[2:])[0] != row.ID {
				t.Errorf("tree --ids row %d: shows %q, Pi's id is %s", k, strings.Fields(line[2:])[0], row.ID)
			}
		}
		if shown != 7 {
			t.Errorf("tree %v: %d labels and active markers checked, branched.jsonl has 7", args, shown)
		}
	}
}
