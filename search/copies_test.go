package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// collect is an Output that keeps what it is given.
type collect struct {
	matches []Match
	results []FileResult
}

func (c *collect) Match(m Match) error         { c.matches = append(c.matches, m); return nil }
func (c *collect) FileDone(r FileResult) error { c.results = append(c.results, r); return nil }

func header(id, ts, parent string) string {
	h := fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":%q,"cwd":"/p"`, id, ts)
	if parent != "" {
		h += fmt.Sprintf(`,"parentSession":%q`, parent)
	}
	return h + "}"
}

func userLine(id, parent, ts, text string) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":%q,"message":{"role":"user","content":%s,"timestamp":1}}`,
		id, parent, ts, text)
}

// copiesFolder writes a session, two clones, a fork with a new turn and a
// plain copy. The second clone writes "needle" as "n\u0065edle": the same
// decoded text, the same match.
func copiesFolder(t *testing.T) []string {
	dir := t.TempDir()
	u1 := userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a needle and a needle"`)
	u1esc := userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a n\u0065edle and a needle"`)
	u2 := userLine("u2", `"u1"`, "2026-01-10T09:00:02.000Z", `"needle again"`)
	u9 := userLine("u9", `"u1"`, "2026-01-11T09:00:01.000Z", `"the fork's own needle"`)
	src := filepath.Join(dir, "s.jsonl") // parentSession: the source's absolute path, as Pi writes it
	files := map[string][]string{
		"clone1.jsonl": {header("c1", "2026-02-01T00:00:00.000Z", src), u1, u2},
		"clone2.jsonl": {header("c2", "2026-02-02T00:00:00.000Z", src), u1esc, u2},
		"fork.jsonl":   {header("f1", "2026-01-11T09:00:00.000Z", src), u1, u9},
		"s.jsonl":      {header("s1", "2026-01-10T09:00:00.000Z", ""), u1, u2},
		"x-copy.jsonl": {header("s1", "2026-01-10T09:00:00.000Z", ""), u1, u2},
	}
	var names []string
	for _, n := range []string{"clone1.jsonl", "clone2.jsonl", "fork.jsonl", "s.jsonl", "x-copy.jsonl"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(strings.Join(files[n], "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	return names
}

func runCollect(t *testing.T, pattern string, opts Options, files []string, workers int) *collect {
	t.Helper()
	m, err := Compile(pattern, false, false)
	if err != nil {
		t.Fatal(err)
	}
	var c collect
	if err := Run(context.Background(), m, opts, files, workers, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func TestCopiesShownOnce(t *testing.T) {
	files := copiesFolder(t)
	base := func(p string) string { return filepath.Base(p) }
	for _, workers := range []int{1, 4} {
		c := runCollect(t, "needle", Options{Copies: true}, files, workers)
		var got []string
		for _, m := range c.matches {
			var copies []string
			for _, f := range m.Copies {
				copies = append(copies, base(f))
			}
			got = append(got, fmt.Sprintf("%s:%s:%s+%d %v", base(m.File), m.ID, m.Before, len(m.Text), copies))
		}
		want := []string{
			"fork.jsonl:u9:the fork's own +6 []",
			"s.jsonl:u1:a +6 [clone1.jsonl clone2.jsonl fork.jsonl x-copy.jsonl]",
			"s.jsonl:u1:a needle and a +6 [clone1.jsonl clone2.jsonl fork.jsonl x-copy.jsonl]",
			"s.jsonl:u2:+6 [clone1.jsonl clone2.jsonl x-copy.jsonl]",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: got\n%s\nwant\n%s", workers, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var counts []int
		for _, r := range c.results {
			counts = append(counts, r.Count)
		}
		if want := []int{0, 0, 1, 3, 0}; !reflect.DeepEqual(counts, want) {
			t.Errorf("workers %d: counts %v, want %v", workers, counts, want)
		}
	}
}

// TestCopiesLimit: -l's limit counts only what is shown, so the fork,
// whose first match is a copy's, is still listed for its own turn.
func TestCopiesLimit(t *testing.T) {
	files := copiesFolder(t)
	c := runCollect(t, "needle", Options{Copies: true, Limit: 1, CountOnly: true}, files, 2)
	var counts []int
	for _, r := range c.results {
		counts = append(counts, r.Count)
	}
	if want := []int{0, 0, 1, 1, 0}; !reflect.DeepEqual(counts, want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
}

// TestAllCopiesAsBefore: without Options.Copies a folder's search is each
// file's search, one after the other, as before copies were known.
func TestAllCopiesAsBefore(t *testing.T) {
	files := copiesFolder(t)
	all := runCollect(t, "needle", Options{}, files, 3)
	var each collect
	for _, f := range files {
		// one file alone has no copies, with or without Options.Copies
		c := runCollect(t, "needle", Options{Copies: true}, []string{f}, 1)
		each.matches = append(each.matches, c.matches...)
		each.results = append(each.results, c.results...)
	}
	if !reflect.DeepEqual(all, &each) {
		t.Errorf("all copies:\n%+v\neach file:\n%+v", all, &each)
	}
	if len(all.matches) != 15 {
		t.Errorf("%d matches, want 15", len(all.matches))
	}
}

// TestCopiesCountFromFirstPass: -c's counts, made from the first pass's
// keys, are the matches the search shows file by file, with stdin, a file
// given twice and a file that cannot be read searched as before.
func TestCopiesCountFromFirstPass(t *testing.T) {
	files := copiesFolder(t)
	files = append(files, files[3], filepath.Join(filepath.Dir(files[0]), "missing.jsonl"), "-")
	stdin := header("in", "2026-03-01T00:00:00.000Z", "") + "\n" + userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a needle and a needle"`) + "\n"
	for _, workers := range []int{1, 3} {
		shown := runCollect(t, "needle", Options{Copies: true, Stdin: strings.NewReader(stdin)}, files, workers)
		counted := runCollect(t, "needle", Options{Copies: true, CountOnly: true, Stdin: strings.NewReader(stdin)}, files, workers)
		var want, got []int
		for k := range files {
			want, got = append(want, shown.results[k].Count), append(got, counted.results[k].Count)
			if (shown.results[k].Err == nil) != (counted.results[k].Err == nil) {
				t.Errorf("workers %d, %s: error %v when counting, %v when showing", workers, files[k], counted.results[k].Err, shown.results[k].Err)
			}
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(want, []int{0, 0, 1, 3, 0, 3, 0, 2}) {
			t.Errorf("workers %d: counted %v, shown %v, want [0 0 1 3 0 3 0 2]", workers, got, want)
		}
	}
}

// writeSessions writes each session's lines to a file named by its key in
// a new folder, and returns the paths in the order of names.
func writeSessions(t *testing.T, names []string, lines func(dir, name string) []string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(strings.Join(lines(dir, n), "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestUnrelatedSessionsNoKeyPass: sessions whose headers share no id and
// no parentSession have no copies: the first pass reads none of them past
// its header, and every match is shown and counted.
func TestUnrelatedSessionsNoKeyPass(t *testing.T) {
	u1 := userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a needle"`)
	files := writeSessions(t, []string{"a.jsonl", "b.jsonl", "c.jsonl"}, func(_, n string) []string {
		return []string{header("id-"+n, "2026-01-10T09:00:00.000Z", ""), u1}
	})
	m, err := Compile("needle", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if c := scanCopies(context.Background(), m, Options{Copies: true, CountOnly: true}, files, 2); c != nil {
		t.Errorf("a first pass over unrelated sessions: %d keys", len(c.holders))
	}
	for _, opts := range []Options{{Copies: true}, {Copies: true, CountOnly: true}} {
		c := runCollect(t, "needle", opts, files, 2)
		var counts []int
		for _, r := range c.results {
			counts = append(counts, r.Count)
		}
		if want := []int{1, 1, 1}; !reflect.DeepEqual(counts, want) {
			t.Errorf("%+v: counts %v, want %v", opts, counts, want)
		}
	}
}

// TestCloneAndCopyShownOnce: a clone (its parentSession names the source
// by its absolute path, as Pi and pitool write it) and a plain copy (the
// same header id, after s.jsonl by path) show a shared match once; a session unrelated to them
// is not read by the first pass, and its match is shown.
func TestCloneAndCopyShownOnce(t *testing.T) {
	u1 := userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a needle"`)
	files := writeSessions(t, []string{"clone.jsonl", "other.jsonl", "s.jsonl", "x-cp.jsonl"}, func(dir, n string) []string {
		h := map[string]string{
			"clone.jsonl": header("c1", "2026-02-01T00:00:00.000Z", filepath.Join(dir, "s.jsonl")),
			"other.jsonl": header("o1", "2026-01-01T00:00:00.000Z", ""),
			"s.jsonl":     header("s1", "2026-01-10T09:00:00.000Z", ""),
			"x-cp.jsonl":  header("s1", "2026-01-10T09:00:00.000Z", ""),
		}[n]
		return []string{h, u1}
	})
	m, err := Compile("needle", false, false)
	if err != nil {
		t.Fatal(err)
	}
	c := scanCopies(context.Background(), m, Options{Copies: true}, files, 2)
	if c == nil || !c.headers[1].IsZero() || c.headers[2].IsZero() {
		t.Fatalf("first pass: want clone, cp and s read, other not: %+v", c)
	}
	got := runCollect(t, "needle", Options{Copies: true}, files, 2)
	var shown []string
	for _, mt := range got.matches {
		var copies []string
		for _, f := range mt.Copies {
			copies = append(copies, filepath.Base(f))
		}
		shown = append(shown, fmt.Sprintf("%s %v", filepath.Base(mt.File), copies))
	}
	if want := []string{"other.jsonl []", "s.jsonl [clone.jsonl x-cp.jsonl]"}; !reflect.DeepEqual(shown, want) {
		t.Errorf("shown %q, want %q", shown, want)
	}
}

// TestFirstPassKeepsSharedKeys: once a group is read, the first pass keeps
// only the keys of matches another file holds; a count keeps the number of
// the others.
func TestFirstPassKeepsSharedKeys(t *testing.T) {
	u1 := userLine("u1", "null", "2026-01-10T09:00:01.000Z", `"a needle"`)
	files := writeSessions(t, []string{"s.jsonl", "x-cp.jsonl"}, func(_, n string) []string {
		own := userLine("own-"+n, `"u1"`, "2026-01-10T09:00:02.000Z", `"needle, needle"`)
		return []string{header("s1", "2026-01-10T09:00:00.000Z", ""), u1, own}
	})
	m, err := Compile("needle", false, false)
	if err != nil {
		t.Fatal(err)
	}
	c := scanCopies(context.Background(), m, Options{Copies: true, CountOnly: true}, files, 2)
	if c == nil || len(c.holders) != 1 || len(c.counted[0]) != 1 || len(c.counted[1]) != 1 || c.alone[0] != 2 || c.alone[1] != 2 {
		t.Fatalf("first pass kept %d keys, counted %v, alone %v; want 1 key, one each, 2 alone each", len(c.holders), c.counted, c.alone)
	}
	got := runCollect(t, "needle", Options{Copies: true, CountOnly: true}, files, 2)
	if got.results[0].Count != 3 || got.results[1].Count != 2 {
		t.Errorf("counts %+v, want 3 and 2", got.results)
	}
}
