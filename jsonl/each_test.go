package jsonl

import (
	"bytes"
	"fmt"
	"testing"
	"unicode/utf8"
)

// TestEachElementMatchesParseArray: the walk yields the elements ParseArray
// splits, fails where it fails, and stops when asked.
func TestEachElementMatchesParseArray(t *testing.T) {
	for _, raw := range []string{`[]`, ` [ 1 , "a\"]" , {"b":[1,2]} , [[]] , null ]`, `[1,2`, `[1 2]`, `{"a":1}`, `"s"`, `[{"type":"text","text":"x"}]`} {
		want, werr := ParseArray([]byte(raw))
		var got [][]byte
		err := EachElement([]byte(raw), func(e []byte) bool { got = append(got, e); return true })
		if (err != nil) != (werr != nil) {
			t.Fatalf("%s: error %v, ParseArray's %v", raw, err, werr)
		}
		if err != nil {
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d elements, ParseArray %d", raw, len(got), len(want))
		}
		for k := range got {
			if !bytes.Equal(got[k], want[k]) {
				t.Errorf("%s: element %d is %s, ParseArray's %s", raw, k, got[k], want[k])
			}
		}
	}
	n := 0
	if err := EachElement([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 }); err != nil || n != 2 {
		t.Errorf("stopped after %d elements with %v, want 2 and no error", n, err)
	}
}

// TestEachMemberMatchesParseObject: the last value of each key is the one
// ParseObject keeps, keys decoded as it decodes them.
func TestEachMemberMatchesParseObject(t *testing.T) {
	for _, raw := range []string{`{}`, `{"a":1,"b":{"c":[1,"}"]},"a":"x"}`, `{"t\u0065xt":"y", "type" : "text"}`, `{"a":1`, `{"a" 1}`, `[1]`} {
		want, werr := ParseObject([]byte(raw))
		last := map[string][]byte{}
		err := EachMember([]byte(raw), func(k string, v []byte) bool { last[k] = v; return true })
		if (err != nil) != (werr != nil) {
			t.Fatalf("%s: error %v, ParseObject's %v", raw, err, werr)
		}
		if err != nil {
			continue
		}
		if len(last) != len(want.Keys) {
			t.Fatalf("%s: keys %v, ParseObject's %v", raw, last, want.Keys)
		}
		for _, k := range want.Keys {
			if !bytes.Equal(last[k], want.Get(k)) {
				t.Errorf("%s: %s is %s, ParseObject's %s", raw, k, last[k], want.Get(k))
			}
		}
	}
}

// readerWalksAgree checks that the Reader's walks of every value in raw, a
// slice of the value r parsed last, give what EachElement, EachMember and
// EachString give, at every depth.
func readerWalksAgree(t *testing.T, r *Reader, raw []byte) {
	t.Helper()
	var want, got []string
	EachString(raw, func(s []byte) bool { want = append(want, string(s)); return true })
	r.EachString(raw, func(s []byte) bool { got = append(got, string(s)); return true })
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Fatalf("%s: Reader's strings %q, the walker's %q", raw, got, want)
	}
	want, got = nil, nil
	// a key of invalid UTF-8 is given as written, where EachMember decodes it
	if EachMember(raw, func(k string, v []byte) bool { want = append(want, k, string(v)); return true }) == nil && utf8.Valid(raw) {
		r.EachMember(raw, func(k, v []byte) bool { got = append(got, string(k), string(v)); return true })
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Fatalf("%s: Reader's members %q, EachMember's %q", raw, got, want)
		}
	}
	var inner [][]byte // the values in raw, one level down
	want, got = nil, nil
	isArray := EachElement(raw, func(e []byte) bool {
		inner = append(inner, e)
		if EachMember(e, func(k string, v []byte) bool { want = append(want, k, string(v)); return true }) == nil {
			want = append(want, "}")
		}
		return true
	}) == nil
	EachMember(raw, func(_ string, v []byte) bool { inner = append(inner, v); return true })
	r.EachObject(raw, func(k, v []byte) { got = append(got, string(k), string(v)) }, func() bool { got = append(got, "}"); return true })
	if isArray && utf8.Valid(raw) && fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Fatalf("%s: Reader's objects %q, EachElement and EachMember %q", raw, got, want)
	}
	for _, v := range inner {
		readerWalksAgree(t, r, v)
	}
}

// TestReaderWalksMatchEach: on lines that parse, the walks by the string
// map give the objects, keys (escaped ones decoded), values and strings
// that EachElement, EachMember and EachString give; a slice of another
// text is walked as they walk it, and stops when asked.
func TestReaderWalksMatchEach(t *testing.T) {
	lines := []string{
		`{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"a \"[x]\" b"},{"type":"toolCall","name":"bash","arguments":{"command":"ls {}","n":[1,{"a":"]"}]}}]}}`,
		` [ 1 , "a\"]" , {"b":[1,2]} , [[]] , null , {} , true ] `,
		`{"t\u0065xt":"y\u00e9", "type" : "text", "text" : "z", "a\\":{"\"":"\\"}}`,
		`{"message":{"content":"plain"},"message":{"role":"user","content":[{"type":"text","text":"last"}]}}`,
	}
	for _, line := range lines {
		var r Reader
		b := []byte(line)
		if !r.Read(b, SkipSpace(b, 0), nil).OK() {
			t.Fatalf("%s does not parse", line)
		}
		readerWalksAgree(t, &r, b[SkipSpace(b, 0):len(bytes.TrimRight(b, " "))])
	}
	var r Reader
	r.Read([]byte(`[{"a":1},2,{"b":3},{"c":4}]`), 0, nil)
	n := 0
	r.EachObject([]byte(`[{"a":1},2,{"b":3},{"c":4}]`), func([]byte, []byte) {}, func() bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("a walk of another text stopped after %d objects, want 2", n)
	}
	line := []byte(`[{"a":1},2,{"b":3},{"c":4}]`)
	r.Read(line, 0, nil)
	n = 0
	r.EachObject(line, func([]byte, []byte) {}, func() bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("a walk of the line read stopped after %d objects, want 2", n)
	}
}

// FuzzReaderWalks: for any line Reader parses, its walks agree with
// EachElement and EachMember.
func FuzzReaderWalks(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x\"y",{"b\u0062":null}],"c":{}}`))
	f.Add([]byte(`[[],{},"\\",-1.5e3]`))
	f.Add([]byte(`{"message":{"role":"user","content":[{"t\u0065xt":"a","text":"b"},1,{},{"type":"toolCall","arguments":{"x":["y"]}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Reader
		i := SkipSpace(b, 0)
		res := r.Read(b, i, nil)
		if !res.OK() {
			return
		}
		readerWalksAgree(t, &r, b[i:res.End])
	})
}
