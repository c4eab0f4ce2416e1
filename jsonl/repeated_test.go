package jsonl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMergeRepeatedKeys(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"\u0061":1,"b":2,"a":3}`, `{"a":3,"b":2}`}, // one key for JSON.parse
		{`[{"a":{"x":1,"x":[{"y":1,"y":2}]},"a":{"z":{"q":1,"q":2}}}, {"k":1}]`, `[{"a":{"z":{"q":2}}}, {"k":1}]`},
		{`{ "a" : 1 , "a" : { "b" : 2 } }`, `{"a":{ "b" : 2 }}`}, // untouched values keep their bytes
		{`{"a":1,"b":{"c":1}}`, `{"a":1,"b":{"c":1}}`},
		{`{"a":1,"a":`, `{"a":1,"a":`}, // not JSON: left as is
	} {
		if got := MergeRepeatedKeys([]byte(c.in)); string(got) != c.want {
			t.Errorf("MergeRepeatedKeys(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestMergeRepeatedKeysDeep merges at the bottom of a million levels without
// recursion.
func TestMergeRepeatedKeysDeep(t *testing.T) {
	const depth = 1_000_000
	in := strings.Repeat(`[`, depth) + `{"a":1,"a":2}` + strings.Repeat(`]`, depth)
	want := strings.Repeat(`[`, depth) + `{"a":2}` + strings.Repeat(`]`, depth)
	if got := MergeRepeatedKeys([]byte(in)); string(got) != want {
		t.Errorf("deep merge gave %d bytes, want %d", len(got), len(want))
	}
}

func TestParseObjectMergesRepeats(t *testing.T) {
	o, err := ParseObject([]byte(`{"role":"assistant","content":"x","r\u006fle":"user"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(o.AppendJSON(nil)); got != `{"role":"user","content":"x"}` {
		t.Errorf("got %s", got)
	}
}

// FuzzMergeRepeatedKeys: the merged text decodes as the input does (Go's
// decoder, like JSON.parse, keeps the last value), repeats no key, and comes
// back unchanged when nothing repeats. Both are decoded as Node reads a
// file: ill-formed UTF-8 made U+FFFD per maximal subpart first
// (appendValidUTF8), as MergeRepeatedKeys decodes a key, where Go's decoder
// alone would make one U+FFFD per byte ("\xe2\x92" is one for Node, two for Go).
func FuzzMergeRepeatedKeys(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":1,"b":2},"\u0061":3}]`, `{"x":[1,{"y":null}],"z":"s"}`, `"str"`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var want any
		if json.Unmarshal(appendValidUTF8(nil, in), &want) != nil || !json.Valid(in) {
			return
		}
		out := MergeRepeatedKeys(in)
		var got any
		if err := json.Unmarshal(appendValidUTF8(nil, out), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s merged to %s (%v)", in, out, err)
		}
		if findRepeats(out) != nil {
			t.Fatalf("%s merged to %s, which still repeats a key", in, out)
		}
		if findRepeats(in) == nil && !bytes.Equal(out, in) {
			t.Fatalf("%s has no repeat but came back as %s", in, out)
		}
	})
}

// BenchmarkMergeRepeatedKeys walks the messages of a real session, none of
// which repeats a key: the cost every printed message pays.
func BenchmarkMergeRepeatedKeys(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "real", "before-compaction.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if len(MergeRepeatedKeys(l)) != len(l) {
				b.Fatal("a corpus line changed")
			}
		}
	}
}
