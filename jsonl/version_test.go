package jsonl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// TestSessionVersionAsPi reads sessions whose header versions are written
// every way JavaScript's comparisons read differently ("3", 3.0, " 3 ",
// "0x3", "", true, [], [2], {}, 7…). Each holds two roots and a hookMessage,
// so the context shows which version Pi read: v1 chains both roots, v2
// renames the role to custom, v3 keeps it. pitool's context equals Pi's.
func TestSessionVersionAsPi(t *testing.T) {
	files, err := filepath.Glob(testref.Corpus("../handmade/versions/*.jsonl"))
	if err != nil || len(files) < 20 {
		t.Fatalf("want the 22 sessions of testdata/handmade/versions, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		rel := "../handmade/versions/" + filepath.Base(file)
		ix := indexCorpus(t, rel)
		want := testref.Golden(t, goldenPath(rel, "context"), "context", file)
		got := viewJSON(t, ix, ix.ActiveLeaf(), jsonl.ViewContext)
		testref.AssertJSONEqual(t, rel, got, want)
		if roots := strings.Count(string(want), `"content":"one"`); (ix.Version == 1) != (roots == 1) {
			t.Errorf("%s: pitool reads v%d, Pi's context %s", rel, ix.Version, want)
		}
	}
}

// TestSessionVersion names the rule on raw values, beside the goldens.
func TestSessionVersion(t *testing.T) {
	for raw, want := range map[string]int{
		"": 1, "null": 1, "0": 1, "1": 1, "1.9": 1, `""`: 1, `" "`: 1, "true": 1, "false": 1, "[]": 1, "[null]": 1, `"1e0"`: 1, `"-Infinity"`: 1, `"0b1"`: 1,
		"2": 2, "[2]": 2, `"2"`: 2, "2.5": 2, `["2"]`: 2, `"0x2"`: 2, `"\u00a02"`: 2,
		"3": 3, "3.0": 3, `"3"`: 3, "7": 3, `"abc"`: 3, "{}": 3, "[true]": 3, "[3,3]": 3, `"Infinity"`: 3, `"1_0"`: 3, `"0x"`: 3, `"+-1"`: 3, `"."`: 3,
	} {
		var v []byte
		if raw != "" {
			v = []byte(raw)
		}
		if got := jsonl.SessionVersion(v); got != want {
			t.Errorf("SessionVersion(%s) = %d, want %d", raw, got, want)
		}
	}
}
