package jsonl

import (
	"testing"
)

// The expected strings are what JSON.stringify writes (ECMA-262 QuoteJSONString).
func TestAppendStringMatchesJSONStringify(t *testing.T) {
	cases := map[string]string{
		"plain":            `"plain"`,
		`<a href="x">&`:    `"<a href=\"x\">&"`,
		"tab\tnl\ncr\r":    `"tab\tnl\ncr\r"`,
		"\b\f\x00\x1f":     `"\b\f\u0000\u001f"`,
		"back\\slash":      `"back\\slash"`,
		"\u2028\u2029":     "\"\u2028\u2029\"",
		"emoji 😀 テスト":      `"emoji 😀 テスト"`,
		"bad \xff\xfe end": "\"bad \uFFFD\uFFFD end\"",
		"\x7f":             "\"\x7f\"",
	}
	for in, want := range cases {
		if got := string(QuoteString(in)); got != want {
			t.Errorf("QuoteString(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestUTF16Len(t *testing.T) {
	cases := map[string]int{"": 0, "abc": 3, "é": 1, "テスト": 3, "数据": 2, "😀": 2, "𝒳a": 3, "👍🏽": 4}
	for s, want := range cases {
		if got := UTF16Len(s); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestDecodeStringEscapesAfterNonASCII(t *testing.T) {
	s, ok := DecodeString([]byte(`"😀 line\nnext \u0041"`))
	if !ok || s != "😀 line\nnext A" {
		t.Fatalf("DecodeString = %q, %v", s, ok)
	}
}

func TestCanonical(t *testing.T) {
	got := string(Canonical([]byte(`{ "path" : "a\/b", "n": [1, 2], "s":"\u00e9\u2028" }`)))
	want := "{\"path\":\"a/b\",\"n\":[1,2],\"s\":\"é\u2028\"}"
	if got != want {
		t.Errorf("Canonical = %s, want %s", got, want)
	}
	if n := StringifiedLen([]byte(`{"q":"テスト😀"}`)); n != 13 {
		t.Errorf("StringifiedLen = %d, want 13", n)
	}
}

func TestEstimateTokensCountsUTF16Units(t *testing.T) {
	user, _ := ParseObject([]byte(`{"role":"user","content":"😀😀テ"}`)) // 5 UTF-16 units → ceil(5/4)
	if got := EstimateTokens(user); got != 2 {
		t.Errorf("EstimateTokens(user) = %d, want 2", got)
	}
	asst, _ := ParseObject([]byte(`{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"read","arguments":{"path":"数"}}]}`))
	if got := EstimateTokens(asst); got != 4 { // "read" 4 + `{"path":"数"}` 12 = 16 → 4
		t.Errorf("EstimateTokens(assistant) = %d, want 4", got)
	}
}
