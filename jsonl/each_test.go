package jsonl

import (
	"bytes"
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
