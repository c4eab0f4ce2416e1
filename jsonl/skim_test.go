package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func isObjectJSON(b []byte) bool {
	return stdjson.Valid(b) && bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{"))
}

func TestSkimLine(t *testing.T) {
	eachPath(func(path string) {
		var s skim
		line := []byte(`{"type":"label","id":"a\u0062","parentId":null,"targetId":"t","label":"x","version":3,"n":[1.5e3,-0,{"k":true}]}`)
		if !new(lineSkimmer).skim(line, &s) || string(s.Type) != `"label"` || string(s.ParentID) != "null" || string(s.Refs[RefTarget]) != `"t"` || string(s.Label) != `"x"` || string(s.Version) != "3" {
			t.Fatalf("%s: skim = %+v", path, s)
		}
		if id, _ := text(s.ID); id != "ab" {
			t.Errorf("%s: id = %q, want the escape decoded", path, id)
		}
		for _, bad := range []string{`{"a":1}{"b":2}`, `{"a":01}`, `{"a":"x`, `{"a":"\x01"}`, `{"a":1.}`, `[1]`, `{"a":"\q"}`, `{"a":tru}`, `{"a":1,}`} {
			if new(lineSkimmer).skim([]byte(bad), &skim{}) {
				t.Errorf("%s: skim accepted %q", path, bad)
			}
		}
	})
}

// FuzzSkimMatchesValid: skim accepts exactly the JSON objects encoding/json
// accepts, and keeps the same fields, on every path of the string map.
func FuzzSkimMatchesValid(f *testing.F) {
	for _, s := range []string{`{"type":"x","id":"1"}`, `{"a":[1,2,{"b":null}]}`, `{"a":"\u00e9"}`, `{"a":1e5}`, ` {} `, `{"a":-0.5E-3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := isObjectJSON(b)
		var first *skim
		eachPath(func(path string) {
			var s skim
			if got := new(lineSkimmer).skim(b, &s); got != want {
				t.Fatalf("%s: skim(%q) = %v, encoding/json says %v", path, b, got, want)
			}
			if first == nil {
				first = &s
			} else if !reflect.DeepEqual(s, *first) {
				t.Fatalf("%s: skim(%q) kept %+v, the first path %+v", path, b, s, *first)
			}
		})
	})
}

// TestSkimNoNestingLimit: the skimmer reads what JSON.parse reads, which
// has no depth limit: valid lines nested up to a million deep are entries,
// in the line and in its message, and a deep line broken at its deepest
// point or its end is not.
func TestSkimNoNestingLimit(t *testing.T) {
	for _, depth := range []int{4096, 4097, 10000, 10001, 100_000, 1_000_000} {
		for _, wrap := range []struct{ open, close, wrong string }{{"[", "]", "}"}, {`{"k":`, "}", "]"}} {
			inner := strings.Repeat(wrap.open, depth) + "0" + strings.Repeat(wrap.close, depth)
			for _, line := range []string{`{"a":` + inner + `}`, `{"message":{"content":` + inner + `}}`} {
				if !new(lineSkimmer).skim([]byte(line), &skim{}) {
					t.Errorf("depth %d of %q in %.20s…: skim rejected a valid line", depth, wrap.open, line)
				}
				for _, bad := range []string{
					line[:len(line)-2] + "}",                                 // one closer short
					strings.Replace(line, "0", "0,", 1),                      // a trailing comma at the bottom
					strings.Replace(line, "0"+wrap.close, "0"+wrap.wrong, 1), // the wrong closer
				} {
					if new(lineSkimmer).skim([]byte(bad), &skim{}) {
						t.Errorf("depth %d of %q: skim accepted the broken line …%.30s", depth, wrap.open, bad[len(bad)-30:])
					}
				}
			}
		}
	}
}

// TestSkimInMatchesSkim checks skimming lines in place, a window of lines
// mapped at a time, against skimming each line alone, on runs of good lines
// mixed with lines whose strings are broken in every way the map checks.
func TestSkimInMatchesSkim(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	good := []string{
		`{"type":"message","id":"a1","parentId":"p","message":{"role":"user","content":"x\"y\\z\n\u00e9"}}`,
		`{"type":"label","id":"l","parentId":null,"targetId":"a1","label":"b\u0022"}`,
		` { "type" : "custom" , "id" : "c" } `,
		`{"type":"message","id":"m","message":{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat(`ab\\\"`, 4000) + `"}]}}`,
		``,
	}
	broken := []string{
		`{"type":"message","id":"u","parentId":"p`, // unclosed: the next line starts inside a string
		`{"a":"x` + "\t" + `y"}`,
		`{"a":"\q"}`,
		`{"a":"\u12G4"}`,
		`{"a":"x\`,
		`{"a":"x""}`,
		`{"type":"custom","id":"j"}{"type":"custom","id":"k"}`,
		`"`,
		`\`,
	}
	for n := 0; n < 300; n++ {
		var buf strings.Builder
		for k := r.Intn(40); k >= 0; k-- {
			line := good[r.Intn(len(good))]
			if r.Intn(4) == 0 {
				line = broken[r.Intn(len(broken))]
			}
			buf.WriteString(line)
			if r.Intn(5) == 0 {
				buf.WriteString("\r")
			}
			if k > 0 || r.Intn(2) == 0 {
				buf.WriteString("\n")
			}
		}
		eachPath(func(string) { assertInPlaceMatchesAlone(t, []byte(buf.String())) })
	}
}

// assertInPlaceMatchesAlone skims the lines of data in place, with window
// maps, and fails unless each agrees with the line skimmed alone.
func assertInPlaceMatchesAlone(t *testing.T, data []byte) {
	t.Helper()
	inPlace := lineSkimmer{data: data}
	sc := &Scanner{name: "-", mapped: &mapping{data: data}, max: MaxLineBytes}
	for sc.Scan() {
		l := sc.Line()
		var alone, windowed skim
		wantOK := new(lineSkimmer).skim(l.Bytes, &alone)
		if gotOK := inPlace.skimLine(l, &windowed); gotOK != wantOK || (wantOK && !reflect.DeepEqual(alone, windowed)) {
			t.Fatalf("line %d %q: in place %v %+v, alone %v %+v", l.Num, l.Bytes, gotOK, windowed, wantOK, alone)
		}
	}
}

// FuzzSkimInMatchesSkim: skimming the lines of any buffer in place, with
// the map of a window of lines, agrees with skimming each line alone, on
// every path of the string map.
func FuzzSkimInMatchesSkim(f *testing.F) {
	for _, s := range []string{
		"{\"type\":\"x\",\"id\":\"1\"}\n{\"a\":\"b\\\"\"}\n",
		"\xef\xbb\xbf{\"a\":1}\r\n{\"a\":\"unclosed}\n{\"b\":\"\\u0041\"}",
		"{\"a\":\"x\ty\"}\n\n{\"message\":{\"role\":\"user\",\"content\":null}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		eachPath(func(string) { assertInPlaceMatchesAlone(t, data) })
	})
}
