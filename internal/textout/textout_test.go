package textout

import (
	"strings"
	"testing"
	"time"
)

// TestAge checks each threshold of formatSessionDate in Pi 1.6.0's
// session selector (dist/modes/interactive/components/session-selector.js):
// diffMins < 1 → "now", < 60 → m, hours < 24 → h, days < 7 → d, < 30 → w,
// < 365 → mo (days/30), else y (days/365), every division floored.
func TestAge(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{
		{0, "now"}, {59*time.Second + 999*time.Millisecond, "now"}, {-time.Hour, "now"},
		{time.Minute, "1m"}, {59*time.Minute + 59*time.Second, "59m"},
		{time.Hour, "1h"}, {23*time.Hour + 59*time.Minute, "23h"},
		{day, "1d"}, {6*day + 23*time.Hour, "6d"},
		{7 * day, "1w"}, {29 * day, "4w"},
		{30 * day, "1mo"}, {59 * day, "1mo"}, {60 * day, "2mo"}, {364 * day, "12mo"},
		{365 * day, "1y"}, {729 * day, "1y"}, {730 * day, "2y"},
	} {
		if got := Age(now.Add(-c.ago), now); got != c.want {
			t.Errorf("Age(now - %v) = %q, want %q", c.ago, got, c.want)
		}
	}
}

func TestIntAndFloat(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1614434: "1,614,434", -1234567: "-1,234,567"} {
		if got := Int(n); got != want {
			t.Errorf("Int(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Float(3884.6); got != "3,885" {
		t.Errorf("Float(3884.6) = %q", got)
	}
}

func TestCountAndArticle(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{1, "file", "1 file"}, {2, "file", "2 files"}, {0, "file", "0 files"},
		{1, "leaf", "1 leaf"}, {2, "leaf", "2 leaves"}, {3, "entry", "3 entries"},
		{1, "compaction", "1 compaction"}, {1204, "match", "1,204 matches"}, {2, "day", "2 days"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if Article("assistant") != "an assistant" || Article("user") != "a user" {
		t.Error("Article: want an assistant, a user")
	}
}

func TestShortPathAndTail(t *testing.T) {
	if got := ShortPath("/h/u/.pi/s/p/a.jsonl", "/h/u/.pi/s", "/h/u"); got != "p/a.jsonl" {
		t.Errorf("inside base: %q", got)
	}
	if got := ShortPath("/h/u/x/a.jsonl", "/h/u/.pi/s", "/h/u"); got != "~/x/a.jsonl" {
		t.Errorf("inside home: %q", got)
	}
	if got := ShortPath("/h/uv/a.jsonl", "", "/h/u"); got != "/h/uv/a.jsonl" {
		t.Errorf("a sibling of home is not in it: %q", got)
	}
	if got := Tail("abcdef/ghij.jsonl", 10); got != "…ghij.jsonl" && Columns(got) != 10 {
		t.Errorf("Tail = %q", got)
	}
	if got := Tail("日本語のファイル.jsonl", 9); Columns(got) > 9 || !strings.HasSuffix(got, ".jsonl") {
		t.Errorf("Tail of wide runes = %q (%d columns)", got, Columns(got))
	}
}

func TestTableFitsWidth(t *testing.T) {
	tab := NewTable(Column{Title: "TITLE", Shrink: Clipped}, Column{Title: "N", Right: true},
		Column{Title: "PATH", Shrink: Tailed})
	tab.Add("a long title that goes on and on and on", "7", "/some/very/long/folder/name/with/a/file.jsonl")
	tab.Add("short\x1b[2J", "1,234", "/b.jsonl")
	for _, width := range []int{30, 40, 80} {
		var b strings.Builder
		if err := tab.Write(&b, width); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if Columns(line) > width {
				t.Errorf("width %d: %q is %d columns", width, line, Columns(line))
			}
			if strings.ContainsRune(line, '\x1b') {
				t.Errorf("escape reached the table: %q", line)
			}
		}
	}
	var b strings.Builder
	tab.Write(&b, 0)
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[1], "/some/very/long/folder/name/with/a/file.jsonl") {
		t.Errorf("no width: the path is cut: %q", lines[1])
	}
	if !strings.Contains(lines[1], "      7  /some") {
		t.Errorf("the count is not right-aligned: %q", lines[1])
	}
}

func TestTableLeavesOutOptionalColumns(t *testing.T) {
	tab := NewTable(Column{Title: "TITLE", Shrink: Clipped}, Column{Title: "TOKENS", Right: true},
		Column{Title: "PATH", Shrink: Tailed, Optional: true})
	tab.Add("a title long enough to be clipped somewhere", "1,234,567", "/a/path/long/enough/to/matter/x.jsonl")
	var b strings.Builder
	tab.Write(&b, 30)
	if strings.Contains(b.String(), "PATH") || !strings.Contains(b.String(), "1,234,567") {
		t.Errorf("at 30 columns the optional PATH should go, the count stay:\n%s", b.String())
	}
	b.Reset()
	tab.Write(&b, 50)
	if !strings.Contains(b.String(), "PATH") {
		t.Errorf("at 50 columns PATH fits at its minimum:\n%s", b.String())
	}
}

func TestChoose(t *testing.T) {
	if Choose(1, "is", "are") != "is" || Choose(0, "is", "are") != "are" || Choose(2, "it was", "they were") != "they were" {
		t.Error("Choose: want one for 1, many otherwise")
	}
}

func TestWidth(t *testing.T) {
	var b strings.Builder
	t.Setenv("COLUMNS", "")
	if got := Width(&b); got != 0 {
		t.Errorf("not a terminal, no $COLUMNS: width %d, want 0 (no limit)", got)
	}
	t.Setenv("COLUMNS", "80")
	if got := Width(&b); got != 80 {
		t.Errorf("$COLUMNS=80: width %d", got)
	}
	t.Setenv("COLUMNS", "wide")
	if got := Width(&b); got != 0 {
		t.Errorf("$COLUMNS=wide: width %d, want 0", got)
	}
}
