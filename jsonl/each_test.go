package jsonl

import (
	"bytes"
	"strings"
	"testing"
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
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
		t.Fatalf("%s: Reader's strings %q, the walker's %q", raw, got, want)
	}
	switch {
	case len(raw) == 0:
	case raw[0] == '[':
		var want, got [][]byte
		EachElement(raw, func(e []byte) bool { want = append(want, e); return true })
		r.EachElement(raw, func(e []byte) bool { got = append(got, e); return true })
		if len(got) != len(want) {
			t.Fatalf("%s: Reader walks %d elements, EachElement %d", raw, len(got), len(want))
		}
		for k := range got {
			if !bytes.Equal(got[k], want[k]) {
				t.Fatalf("%s: element %d is %s, EachElement's %s", raw, k, got[k], want[k])
			}
			readerWalksAgree(t, r, got[k])
		}
	case raw[0] == '{':
		var want, got []string
		EachMember(raw, func(k string, v []byte) bool { want = append(want, k, string(v)); return true })
		var vals [][]byte
		r.EachMember(raw, func(k, v []byte) bool { got = append(got, string(k), string(v)); vals = append(vals, v); return true })
		if len(got) != len(want) {
			t.Fatalf("%s: Reader walks %q, EachMember %q", raw, got, want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%s: Reader walks %q, EachMember %q", raw, got, want)
			}
		}
		for _, v := range vals {
			readerWalksAgree(t, r, v)
		}
	}
}

// TestReaderWalksMatchEach: on lines that parse, the walks by the string
// map give the elements, keys (escaped ones decoded) and values that
// EachElement and EachMember give, and stop when asked; a slice of
// another text is walked as EachElement walks it.
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
	r.Read([]byte(`[1,2,3]`), 0, nil)
	n := 0
	r.EachElement([]byte(`[4,5,6]`), func(e []byte) bool { n++; return string(e) != "5" })
	if n != 2 {
		t.Errorf("a walk of another text stopped after %d elements, want 2", n)
	}
}

// FuzzReaderWalks: for any line Reader parses, its walks agree with
// EachElement and EachMember.
func FuzzReaderWalks(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x\"y",{"b\u0062":null}],"c":{}}`))
	f.Add([]byte(`[[],{},"\\",-1.5e3]`))
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
