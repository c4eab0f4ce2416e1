package search

import (
	"context"
	"strings"
	"testing"
)

// TestMatchesInRawAndDecodedTexts: a text is searched in its bytes as
// written when it has no escape and its line is valid UTF-8, and decoded
// otherwise; the matches and their snippets are the decoded text's either
// way (an invalid byte is U+FFFD, three bytes, before the match).
func TestMatchesInRawAndDecodedTexts(t *testing.T) {
	lines := []string{header("s1", "2026-01-10T09:00:00.000Z", ""),
		userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"plain retry here"`),
		userLine("u2", `"u1"`, "2026-01-10T09:00:02.000Z", `"line\nwith \"retry\" quoted"`),
		userLine("u3", `"u2"`, "2026-01-10T09:00:03.000Z", "\"bad \xff byte retry\""),
		userLine("u4", `"u3"`, "2026-01-10T09:00:04.000Z", `"r\u0065try escaped"`)}
	path := writeSessions(t, []string{"s.jsonl"}, func(string, string) []string { return lines })[0]
	m, err := Compile("retry", false, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	n, err := searchFile(context.Background(), m, &Options{}, path, func(mt Match) error {
		got = append(got, mt.ID+"|"+mt.Before+"|"+mt.Text+"|"+mt.After)
		return nil
	})
	if err != nil || n != 4 {
		t.Fatalf("%d matches, %v; want 4", n, err)
	}
	want := []string{"u1|plain |retry| here", `u2|with "|retry|" quoted`, "u3|bad \uFFFD byte |retry|", "u4||retry| escaped"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("matches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCountOfLongLines: -c counts the same in a line whose occurrences are
// listed for its texts and in one too long to list (listedLineBytes),
// whose texts are looked through one by one, escapes and occurrences
// outside the texts (the id, a key) included.
func TestCountOfLongLines(t *testing.T) {
	text := func(n int) string { return `"` + strings.Repeat(`retry \"retry\" \\retry \nx`, n) + `"` }
	short, long := 3, listedLineBytes/20+1 // each repeat is 25 bytes: 3 matches
	lines := []string{header("s1", "2026-01-10T09:00:00.000Z", ""),
		userLine("retry", "null", "2026-01-10T09:00:01.000Z", text(short)),
		userLine("u2", `"retry"`, "2026-01-10T09:00:02.000Z", text(long))}
	if len(lines[2]) <= listedLineBytes || len(lines[1]) > listedLineBytes {
		t.Fatalf("lines of %d and %d bytes", len(lines[1]), len(lines[2]))
	}
	path := writeSessions(t, []string{"s.jsonl"}, func(string, string) []string { return lines })[0]
	m, err := Compile("retry", false, false)
	if err != nil {
		t.Fatal(err)
	}
	n, err := searchFile(context.Background(), m, &Options{CountOnly: true}, path, nil)
	if want := 3 * (short + long); err != nil || n != want {
		t.Fatalf("counted %d, %v; want %d", n, err, want)
	}
	decoded, err := searchFile(context.Background(), m, &Options{}, path, func(Match) error { return nil })
	if err != nil || decoded != n {
		t.Fatalf("counted %d raw, %d decoded (%v)", n, decoded, err)
	}
}
