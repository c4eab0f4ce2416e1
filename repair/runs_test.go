package repair_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pitool/pitool/repair"
)

// TestRunsOfLinesWithoutEntries: runs of blank and garbage lines are one
// record each, one finding per blank run, and repair drops the blank lines
// and quarantines each garbage line as it was, a false byte-order mark
// included.
func TestRunsOfLinesWithoutEntries(t *testing.T) {
	in := file(hdr, user("a", ""), strings.Repeat("\n", 999), "x1", "\xEF\xBB\xBFx2", "", "  \r", "\x00", "x3", user("b", "a")) +
		strings.Repeat("\n", 5) + "\r\n"
	rep := validateBytes(t, []byte(in))
	var blanks []string
	for _, f := range rep.Findings {
		if f.Code == "line.blank" {
			blanks = append(blanks, f.Message)
		}
	}
	want := []string{"1000 blank lines (lines 3 to 1002)", "2 blank lines (lines 1005 to 1006)", "6 blank lines (lines 1010 to 1015)"}
	if strings.Join(blanks, "|") != strings.Join(want, "|") {
		t.Fatalf("blank findings %q, want %q", blanks, want)
	}
	out, q, _ := repairBytes(t, []byte(in), repair.Options{})
	if string(out) != file(hdr, user("a", ""), user("b", "a")) {
		t.Errorf("repaired:\n%q", out)
	}
	if string(q) != file("x1", "\xEF\xBB\xBFx2", "x3") {
		t.Errorf("quarantine %q", q)
	}
	checkRepairProperties(t, "runs", []byte(in), repair.Options{})
	if f, _, _ := repairFile(t, []byte(in), repair.Options{}); !bytes.Equal(f, out) {
		t.Errorf("repair of the file differs from repair in memory:\n%q", f)
	}
}

// TestRepairListsBoundedFixes: a file of many garbage lines lists at most
// MaxFixesPerCode fixes per code and counts the rest.
func TestRepairListsBoundedFixes(t *testing.T) {
	n := repair.MaxFixesPerCode + 7
	in := file(hdr, user("a", "")) + strings.Repeat("x\n"+user("a", "")+"\n", n)
	_, _, res := repairBytes(t, []byte(in), repair.Options{})
	count := map[string]int{}
	for _, f := range res.Fixes {
		count[f.Code]++
	}
	if count["line.garbage"] != repair.MaxFixesPerCode || res.Unlisted["line.garbage"] != 7 {
		t.Fatalf("%d garbage fixes listed, %d unlisted", count["line.garbage"], res.Unlisted["line.garbage"])
	}
}
