package stats

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// corpusFiles are the repository's corpus sessions, damaged ones included.
func corpusFiles(t *testing.T) []string {
	files, err := sessionfiles.Expand([]string{filepath.Join("..", "testdata", "corpus")})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d corpus files", len(paths))
	}
	return paths
}

// TestTotalsAgreeWithInfo: stats --per-file --by session gives each session
// the tokens and cost pitool info gives it, and the total is their sum.
func TestTotalsAgreeWithInfo(t *testing.T) {
	files := corpusFiles(t)
	rep, failed := Collect(context.Background(), files, Options{By: BySession, PerFile: true})
	bySession := map[string]Row{}
	for _, r := range rep.Rows {
		bySession[r.Key] = r
	}
	unreadable := map[string]bool{}
	for _, f := range failed {
		unreadable[f.File] = true
	}
	var sum Row
	for _, f := range files {
		ix, closeFn, err := jsonl.IndexFile(f, nil)
		if err != nil {
			if !unreadable[f] {
				t.Errorf("%s: info fails (%v) but stats read it", f, err)
			}
			continue
		}
		st, _ := os.Stat(f)
		info, err := ix.Info(f, st.ModTime())
		closeFn()
		if err != nil {
			t.Fatal(err)
		}
		got := bySession[f]
		want := info.Tokens
		if got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite || got.Cost != info.Cost {
			t.Errorf("%s: stats %+v, info %+v $%v", f, got, want, info.Cost)
		}
		sum.Input += want.Input
		sum.Output += want.Output
		sum.CacheRead += want.CacheRead
		sum.CacheWrite += want.CacheWrite
	}
	if sum.Input == 0 || sum.Output == 0 {
		t.Fatal("the corpus bills nothing: the test proves nothing")
	}
	tot := rep.Total
	if tot.Input != sum.Input || tot.Output != sum.Output || tot.CacheRead != sum.CacheRead || tot.CacheWrite != sum.CacheWrite {
		t.Errorf("total %+v, sum of info %+v", tot, sum)
	}
}

// TestEveryGroupingSumsToTheTotal: whatever the grouping, the rows add up
// to the same total, counting each entry once or each file's own.
func TestEveryGroupingSumsToTheTotal(t *testing.T) {
	for _, perFile := range []bool{false, true} {
		everyGroupingSums(t, corpusFiles(t), perFile)
	}
}

func everyGroupingSums(t *testing.T, files []string, perFile bool) Row {
	t.Helper()
	var first *Row
	for _, by := range Groupings {
		rep, _ := Collect(context.Background(), files, Options{By: by, Workers: 2, PerFile: perFile})
		var sum Row
		for i := range rep.Rows {
			sum.merge(&rep.Rows[i])
		}
		if sum.TotalTokens != rep.Total.TotalTokens || sum.Entries != rep.Total.Entries {
			t.Errorf("per file %v, --by %s: rows sum to %v tokens in %d entries, total %v in %d", perFile, by, sum.TotalTokens, sum.Entries, rep.Total.TotalTokens, rep.Total.Entries)
		}
		if first == nil {
			first = &rep.Total
		} else if rep.Total.TotalTokens != first.TotalTokens || rep.Total.Sessions != first.Sessions {
			t.Errorf("--by %s: total %+v, --by %s gave %+v", by, rep.Total, Groupings[0], *first)
		}
	}
	return *first
}

// TestRowJSONRoundsCost checks that a cost summed in float64 is written with
// the decimals prices carry, not the sum's noise, and that text stays unescaped.
func TestRowJSONRoundsCost(t *testing.T) {
	r := Row{Key: "a<b>&c", Cost: 0.1 + 0.2 + 2.601} // 2.9009999999999998 in float64
	var b strings.Builder
	enc := json.NewEncoder(&b) // as pitool's output encodes: no HTML escaping
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, `"cost":2.901,`) || !strings.Contains(got, `"key":"a<b>&c"`) {
		t.Errorf("row JSON = %s, want cost 2.901 and the key as written", got)
	}
}
