package jsonl

import (
	stdjson "encoding/json"
	"testing"
)

// TestDecodeString checks escapes, surrogates and bytes that are not UTF-8
// against a plain decode of the string after Node's decoder (whatwgDecode),
// and that a malformed escape is refused.
func TestDecodeString(t *testing.T) {
	for _, raw := range []string{
		`"plain"`, `"tab\tnew\nline \"q\" \\ \/ \b\f\r"`, `"\u00e9\u4e2D"`, `"\ud83d\ude00"`,
		`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800"`, `"\ud83d"`,
		"\"cut \xe2\x82\\n\"", "\"\xff\xfe\\u0041\"", "\"\xed\xa0\x80\"", "\"\xf0\x9f\\\"\"", `""`,
	} {
		var want string
		if err := stdjson.Unmarshal(whatwgDecode([]byte(raw)), &want); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if got, ok := DecodeString([]byte(raw)); !ok || got != want {
			t.Errorf("DecodeString(%q) = %q, %v; want %q", raw, got, ok, want)
		}
		if got, ok := AppendDecodedString([]byte("x"), []byte(raw)); !ok || string(got) != "x"+want {
			t.Errorf("AppendDecodedString(x, %q) = %q, %v; want x%q", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`"\x"`, `"\u12"`, `"\u12g4"`, `"\`, `"abc`, `abc"`, `"`, `1`, "\"\\\xe2\x82\""} {
		if got, ok := DecodeString([]byte(raw)); ok {
			t.Errorf("DecodeString(%q) = %q, ok; want a refusal", raw, got)
		}
	}
	if got, ok := AppendDecodedString(nil, []byte(`"a\xb\u12 ok\n"`)); ok || string(got) != "a\\xb\\u12 ok\n" {
		t.Errorf("a malformed escape gives %q, %v; want it kept as written", got, ok)
	}
}
