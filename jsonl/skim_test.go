package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// stdSyntax is the definition the skim is checked against: the Syntax of a
// line as encoding/json reads it, whose grammar is JSON.parse's. A line is
// one object: its end, or the offset of the first byte encoding/json
// refuses (a line that does not start with an object, at its first byte).
// comparable is false where the two differ on purpose: encoding/json stops
// at a depth of 10,000, JSON.parse and the skim do not.
func stdSyntax(b []byte) (want Syntax, comparable bool) {
	var v stdjson.RawMessage
	err := stdjson.Unmarshal(b, &v)
	start := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	switch {
	case start < len(b) && b[start] != '{':
		return refusedAt(start, len(b)), true
	case err == nil:
		return parsedTo(len(bytes.TrimRight(b, " \t\r\n"))), true
	}
	return stdError(err, b)
}

// stdError is the Syntax of encoding/json's error err for text b.
// encoding/json counts a syntax error's offset past the byte it refuses; at
// the end of the text it reads a space, so a space refused there that b
// does not hold is the end of the text.
func stdError(err error, b []byte) (want Syntax, comparable bool) {
	var se *stdjson.SyntaxError
	n := len(b)
	switch {
	case !errors.As(err, &se):
		panic(err)
	case strings.Contains(se.Error(), "exceeded max depth"):
		return Syntax{}, false
	case se.Error() == "unexpected end of JSON input",
		int(se.Offset) == n && strings.HasPrefix(se.Error(), "invalid character ' '") && b[n-1] != ' ':
		return refusedAt(n, n), true
	}
	return refusedAt(int(se.Offset)-1, n), true
}

// checkSkimSyntax fails unless skim's Syntax for b is stdSyntax's.
func checkSkimSyntax(t *testing.T, path string, b []byte, got Syntax) {
	t.Helper()
	if want, ok := stdSyntax(b); ok && got != want {
		t.Fatalf("%s: skim(%q) = %+v, encoding/json says %+v", path, b, got, want)
	}
}

func TestSkimLine(t *testing.T) {
	eachPath(func(path string) {
		var s skim
		line := []byte(`{"type":"label","id":"a\u0062","parentId":null,"targetId":"t","label":"x","version":3,"n":[1.5e3,-0,{"k":true}]}`)
		if !new(lineSkimmer).skim(line, &s).OK() || string(s.Type) != `"label"` || string(s.ParentID) != "null" || string(s.Refs[RefTarget]) != `"t"` || string(s.Label) != `"x"` || string(s.Version) != "3" {
			t.Fatalf("%s: skim = %+v", path, s)
		}
		if id, _ := DecodeString(s.ID); id != "ab" {
			t.Errorf("%s: id = %q, want the escape decoded", path, id)
		}
		for _, bad := range []struct {
			line string
			at   int
			eof  bool
		}{
			{`{"a":1}{"b":2}`, 7, false}, {`{"a":01}`, 6, false}, {`{"a":"x`, 7, true}, {`{"a":"\x01"}`, 7, false}, {"{\"a\":\"\x01\"}", 6, false},
			{`{"a":1.}`, 7, false}, {` [1]`, 1, false}, {`{"a":"\q"}`, 7, false}, {`{"a":tru}`, 8, false},
			{`{"a":1,}`, 7, false}, {`{"a":"\u12G4"}`, 10, false}, {`{"a":"\u12`, 10, true}, {`{"a":"x\`, 8, true},
			{`{"a" 1,"b":"\q"}`, 5, false}, {`{"b":"\q","a" 1}`, 7, false}, {`{"a":[1,{"b":nul`, 16, true}, {``, 0, true},
			{`{"a":[1,{"b":"` + strings.Repeat("x", 200) + "\n\x00\"}]}", 214, false},
		} {
			got := new(lineSkimmer).skim([]byte(bad.line), &skim{})
			if got.OK() || got.ErrAt != bad.at || got.EOF != bad.eof {
				t.Errorf("%s: skim(%q) = %+v, want an error at %d (EOF %v)", path, bad.line, got, bad.at, bad.eof)
			}
			checkSkimSyntax(t, path, []byte(bad.line), got)
		}
	})
}

// FuzzSkimMatchesValid: skim accepts exactly the JSON objects encoding/json
// accepts, reports the same end or first error (offset and EOF), and keeps
// the same fields, on every path of the string map.
func FuzzSkimMatchesValid(f *testing.F) {
	for _, s := range []string{`{"type":"x","id":"1"}`, `{"a":[1,2,{"b":null}]}`, `{"a":"\u00e9"}`, `{"a":1e5}`, ` {} `, `{"a":-0.5E-3}`,
		`{"a":"\q","b" 1}`, `{"a" 1,"b":"\u12"}`, "{\"a\":\"\x01\"}", `{"a":tr`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var first *skim
		var firstSyntax Syntax
		eachPath(func(path string) {
			var s skim
			got := new(lineSkimmer).skim(b, &s)
			checkSkimSyntax(t, path, b, got)
			if first == nil {
				first, firstSyntax = &s, got
			} else if got != firstSyntax || (got.OK() && !reflect.DeepEqual(s, *first)) {
				t.Fatalf("%s: skim(%q) = %+v kept %+v, the first path %+v %+v", path, b, got, s, firstSyntax, *first)
			}
		})
	})
}

// FuzzReaderMatchesValid: Reader.Read, from any offset of any text, agrees
// with encoding/json reading the text from there: where the value ends, or
// where and how it breaks, on every path of the string map. It keeps the
// fields the skim keeps of the same object.
func FuzzReaderMatchesValid(f *testing.F) {
	for _, s := range []string{`{"type":"x","id":"1"}{"type":"y"}`,
		`{"message":{"role":"assistant","content":[{"type":"text","text":"toolCall"},{"type":"toolCall","id":"a","name":"n","arguments":{"x":[1]}},` +
			`[{"type":"toolCall"}],7,{},{"type":"toolC\u0061ll","id":"b","id":"c","n\u0061me":{"k":2}}]}}`, `junk {"a":"b\"c"} {"d":`, `"\u00e9" 1`, `[1,2]x`, `{"a":"\q"}`, "{\"a\":\"\xff\"}",
		`{"message":{"content":[{"a":1,}]}}`, `{"message":{"content":[{"a" 1}]}}`, `{"message":{"content":[1,]}}`, `{"message":{"content":[{"a":1} 2]}}`,
		`{"message":{"content":[{"a":1}`, `{"message":{"content":[ ] ,"content":[{ } , {"b":[]}]}}`} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		i := int(at) % (len(b) + 1)
		eachPath(func(path string) {
			var r Reader
			var fields Fields
			got := r.Read(b, i, &fields)
			checkRead(t, path, b, i, got)
			if got.OK() && b[i] == '{' {
				if RoleOf(fields.Msg.Role) == AssistantRole {
					checkToolCalls(t, path, fields.Msg.Content, fields.Msg.ToolCalls)
				} else if fields.Msg.ToolCalls != nil {
					t.Fatalf("%s: Read(%q, %d) kept tool calls of a message that is not an assistant's", path, b, i)
				}
				fields.Msg.ToolCalls = nil
				var s skim
				if line := new(lineSkimmer).skim(b[i:got.End], &s); !line.OK() || !reflect.DeepEqual(s.Fields, fields) {
					t.Fatalf("%s: Read(%q, %d) kept %+v, the skim of the object %+v %+v", path, b, i, fields, line, s.Fields)
				}
			}
		})
	})
}

// checkToolCalls fails unless calls are the tool call blocks of content by
// a plain decode (encoding/json: the last of a repeated key counts, as with
// JSON.parse).
func checkToolCalls(t *testing.T, path string, content []byte, calls []RawToolCall) {
	t.Helper()
	var blocks []stdjson.RawMessage
	if stdjson.Unmarshal(content, &blocks) != nil || content[0] != '[' {
		blocks = nil
	}
	var want []RawToolCall
	for _, raw := range blocks {
		var block map[string]stdjson.RawMessage
		if raw[0] == '{' && stdjson.Unmarshal(raw, &block) == nil && BlockType(block["type"]) == BlockToolCall {
			want = append(want, RawToolCall{ID: block["id"], Name: block["name"]})
		}
	}
	if len(calls) != len(want) {
		t.Fatalf("%s: tool calls of %q: %q, a plain decode %q", path, content, calls, want)
	}
	for k := range want {
		if !bytes.Equal(calls[k].ID, want[k].ID) || !bytes.Equal(calls[k].Name, want[k].Name) || (calls[k].ID == nil) != (want[k].ID == nil) || (calls[k].Name == nil) != (want[k].Name == nil) {
			t.Fatalf("%s: tool calls of %q: %q, a plain decode %q", path, content, calls, want)
		}
	}
}

// checkRead fails unless got, Read's Syntax for the value at b[i], is what
// encoding/json finds in b[i:].
func checkRead(t *testing.T, path string, b []byte, i int, got Syntax) {
	t.Helper()
	text := b[i:]
	var v stdjson.RawMessage
	err := stdjson.Unmarshal(text, &v)
	var se *stdjson.SyntaxError
	switch {
	case len(text) > 0 && IsSpace(text[0]): // Read starts at a value, not at white space
		if got != refusedAt(i, len(b)) {
			t.Fatalf("%s: Read(%q, %d) = %+v at white space", path, b, i, got)
		}
	case err == nil:
		end := len(bytes.TrimRight(text, " \t\r\n"))
		if got != (Syntax{End: i + end, ErrAt: -1, BadUTF8: !utf8.Valid(text[:end])}) {
			t.Fatalf("%s: Read(%q, %d) = %+v, want the value to end at %d", path, b, i, got, i+end)
		}
	case errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value"):
		if !got.OK() || !stdjson.Valid(b[i:got.End]) || SkipSpace(b, got.End) != i+int(se.Offset)-1 {
			t.Fatalf("%s: Read(%q, %d) = %+v, encoding/json: %v", path, b, i, got, err)
		}
	default:
		if want, ok := stdError(err, text); ok && got != want.shifted(i) {
			t.Fatalf("%s: Read(%q, %d) = %+v, encoding/json says %+v", path, b, i, got, want.shifted(i))
		}
	}
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
				if !new(lineSkimmer).skim([]byte(line), &skim{}).OK() {
					t.Errorf("depth %d of %q in %.20s…: skim rejected a valid line", depth, wrap.open, line)
				}
				for _, bad := range []string{
					line[:len(line)-2] + "}",                                 // one closer short
					strings.Replace(line, "0", "0,", 1),                      // a trailing comma at the bottom
					strings.Replace(line, "0"+wrap.close, "0"+wrap.wrong, 1), // the wrong closer
				} {
					if new(lineSkimmer).skim([]byte(bad), &skim{}).OK() {
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
		want := new(lineSkimmer).skim(l.Bytes, &alone)
		if got := inPlace.skimLine(l, &windowed); got != want || (want.OK() && !reflect.DeepEqual(alone, windowed)) {
			t.Fatalf("line %d %q: in place %+v %+v, alone %+v %+v", l.Num, l.Bytes, got, windowed, want, alone)
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

// TestReadFirstMatchesRead reads every value of a line of joined entries
// longer than ReadFirst's windows, whole and cut at every byte around a
// window's edge, with ReadFirst and with Read: the results and fields are
// the same wherever an edge falls (a literal, a number, an escape, a
// multi-byte character).
func TestReadFirstMatchesRead(t *testing.T) {
	items := strings.Repeat(`true,false,null,-12.5e3,"\u0041é\"",`, firstWindow/30)
	var line []byte
	var starts []int
	for k := range 24 {
		starts = append(starts, len(line))
		line = fmt.Appendf(line, `{"type":"message","id":"%08x","message":{"role":"assistant","content":[{"type":"toolCall","id":"c%d","name":"%s","arguments":{"a":[%s0]}}]}}`, k, k, strings.Repeat("x", k), items)
	}
	cuts := []int{len(line)}
	for _, i := range starts {
		for d := -10; d <= 2; d++ {
			cuts = append(cuts, min(len(line), i+firstWindow+d))
		}
	}
	var r Reader
	for _, cut := range cuts {
		b := line[:cut]
		for _, i := range starts {
			if i >= cut {
				break
			}
			var want, got Fields
			ws, gs := r.Read(b, i, &want), r.ReadFirst(b, i, &got)
			if ws != gs || !reflect.DeepEqual(want, got) {
				t.Fatalf("cut %d, value at %d: Read %+v, ReadFirst %+v", cut, i, ws, gs)
			}
			if cut == len(line) && (!ws.OK() || len(want.Msg.ToolCalls) != 1) {
				t.Fatalf("value at %d does not read whole: %+v", i, ws)
			}
		}
	}
}
