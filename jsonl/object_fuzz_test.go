package jsonl_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// FuzzObjectMatchesDecode checks pitool's two general decoders against
// encoding/json on any valid JSON text (made UTF-8 first, as Pi reads a
// session, so that both read the same strings): ParseObject splits an
// object into the keys, in order, and the exact value bytes a token-by-token
// decode finds (a repeated key kept once, as JSON.parse keeps it), and writes it back as the same
// value; Unmarshal into an interface gives what encoding/json gives.
func FuzzObjectMatchesDecode(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,null],"a":{"c":"\u00e9"}}`, ` { "k" : "v" } `, `{}`, `[1,"x",{"y":-0.5e3}]`,
		`{"\ud83d\ude00":"😀","e":"\"\\\/\b\f\n\r\t"}`, "{\"bad\":\"\xff\xfe\"}", `"s"`, `{"n":12345678901234567890}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = jsonl.ToValidUTF8(raw)
		if !json.Valid(raw) {
			return
		}
		checkUnmarshal(t, raw)
		if k := jsonl.SkipSpace(raw, 0); raw[k] == '{' {
			checkParseObject(t, raw)
		}
	})
}

func checkUnmarshal(t *testing.T, raw []byte) {
	var want, got any
	if json.Unmarshal(raw, &want) != nil {
		return // a number out of float64's range
	}
	if err := jsonl.Unmarshal(raw, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal(%q) = %v, %v; encoding/json %v", raw, got, err, want)
	}
}

func checkParseObject(t *testing.T, raw []byte) {
	o, err := jsonl.ParseObject(raw)
	if err != nil {
		t.Fatalf("ParseObject(%q): %v", raw, err)
	}
	keys, vals := tokenMembers(t, raw)
	if !slices.Equal(o.Keys, keys) || len(o.Vals) != len(vals) {
		t.Fatalf("ParseObject(%q) keys %q, encoding/json %q", raw, o.Keys, keys)
	}
	for k := range vals {
		if !bytes.Equal(o.Vals[k], vals[k]) {
			t.Fatalf("ParseObject(%q) value %d is %q, encoding/json %q", raw, k, o.Vals[k], vals[k])
		}
	}
	var back, want any
	if err := json.Unmarshal(o.AppendJSON(nil), &back); err != nil || json.Unmarshal(raw, &want) != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("ParseObject(%q) writes back %q (%v)", raw, o.AppendJSON(nil), err)
	}
}

// tokenMembers reads the members of the object raw with encoding/json's
// token decoder as JSON.parse keeps them: a repeated key where it came
// first, with the value written last; each value as its bytes.
func tokenMembers(t *testing.T, raw []byte) (keys []string, vals [][]byte) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if _, err := d.Token(); err != nil {
		t.Fatal(err)
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if k := slices.Index(keys, tok.(string)); k >= 0 {
			vals[k] = v
			continue
		}
		keys, vals = append(keys, tok.(string)), append(vals, v)
	}
	return keys, vals
}
