package exporter

import (
	"strings"
	"testing"
)

// TestSummaryLine checks the sidebar line against its definition: the words
// joined by single spaces, cut at 100 bytes (never inside a UTF-8 sequence).
func TestSummaryLine(t *testing.T) {
	for _, s := range []string{
		"", "  \n\t ", "one", " a  b\nc\t", strings.Repeat("word ", 19) + "wor", strings.Repeat("word ", 20) + "x",
		strings.Repeat("é", 49) + " " + strings.Repeat("é", 10), strings.Repeat("x", 99) + "é", strings.Repeat("long ", 1000),
	} {
		want := strings.Join(strings.Fields(s), " ")
		if len(want) > 100 {
			want = strings.ToValidUTF8(want[:100], "") + "…"
		}
		if got := summaryLine(s); got != want {
			t.Errorf("summaryLine(%.30q…) = %q, want %q", s, got, want)
		}
	}
}
