package jsonl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// checkDecodeBlocks asserts that DecodeBlocks, when it takes content, gives
// what Unmarshal gives; it reports whether it took it.
func checkDecodeBlocks(t *testing.T, content []byte) bool {
	t.Helper()
	got, ok := DecodeBlocks(content)
	if !ok {
		return false
	}
	var want []Block
	if err := Unmarshal(content, &want); err != nil {
		t.Fatalf("DecodeBlocks took %q, which Unmarshal refuses: %v", content, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeBlocks(%q) =\n%#v\nUnmarshal gives\n%#v", content, got, want)
	}
	return true
}

// TestDecodeBlocksAgreesOnCorpus decodes the content arrays of every message
// of the corpus both ways, and checks which contents DecodeBlocks leaves to
// Unmarshal.
func TestDecodeBlocksAgreesOnCorpus(t *testing.T) {
	taken, arrays := 0, 0
	forCorpusMessages(t, func(m RawMessage) {
		msg, err := ParseObject(m)
		if err != nil {
			return
		}
		if c := msg.Get("content"); len(c) > 0 && c[0] == '[' {
			arrays++
			if checkDecodeBlocks(t, c) {
				taken++
			}
		}
	})
	t.Logf("DecodeBlocks took %d of the corpus's %d content arrays", taken, arrays)
	if taken < arrays/2 {
		t.Errorf("DecodeBlocks took only %d of %d content arrays", taken, arrays)
	}
	for _, c := range []string{
		`[{"type":"text","Text":"a"}]`,                 // a key in other case
		`[{"type":"text","te\u0078t":"a"}]`,            // an escaped key
		`[{"type":"text","text":"a","text":"b"}]`,      // a key twice
		`[{"type":"text","text":"\ud800"}]`,            // a lone surrogate
		`[{"type":"text","text":5}]`,                   // a value of another type
		`[{"type":"toolCall","arguments":null}]`,       // null arguments
		`[null]`, `["a"]`, `[{"type":"text"}] x`, `{}`, // not an array of objects
		"[{\"type\":\"text\",\"text\":\"\xff\"}]", // not UTF-8
	} {
		if _, ok := DecodeBlocks([]byte(c)); ok {
			t.Errorf("DecodeBlocks took %s", c)
		}
	}
	for _, c := range []string{
		`[]`, ` [ ] `, `[{}]`,
		`[{"type":"text","text":"a\n\"b\" \u00e9 \t\/","extra":{"x":[1]}}]`,
		`[{"type":"thinking","thinking":"t","thinkingSignature":"s","redacted":true},{"type":"toolCall","id":"c","name":"bash","arguments":{"command":"ls"}}]`,
		`[{"type":"image","data":"AAAA","mimeType":"image/png","text":null,"redacted":null}]`,
	} {
		if !checkDecodeBlocks(t, []byte(c)) {
			t.Errorf("DecodeBlocks left %s to Unmarshal", c)
		}
	}
}

// FuzzDecodeBlocks holds DecodeBlocks to Unmarshal: whatever valid JSON it takes, it
// decodes as Unmarshal does.
func FuzzDecodeBlocks(f *testing.F) {
	for _, c := range []string{
		`[{"type":"text","text":"a\nb"}]`,
		`[{"type":"thinking","thinking":"t","thinkingSignature":"s","redacted":false},{"type":"toolCall","id":"c","name":"n","arguments":{"a":[1,{"b":null}]}}]`,
		`[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"\u00e9\ud83d\ude00","x":1}]`,
		`[{"TYPE":"text"}]`, `[ ]`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		if strings.Count(string(content), "[")+strings.Count(string(content), "{") > 1000 {
			return // the decoder's depth limit is Unmarshal's business, not this target's
		}
		if !json.Valid(content) {
			DecodeBlocks(content) // invalid JSON is outside its contract (no indexed line holds it); it must only not panic
			return
		}
		checkDecodeBlocks(t, content)
	})
}

// TestHasControl holds the eight-bytes-at-a-time scan to the byte-by-byte
// definition: every byte value at every offset of words and tails.
func TestHasControl(t *testing.T) {
	for n := 0; n <= 19; n++ {
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				b := bytes.Repeat([]byte{'a'}, n)
				if at%3 == 1 {
					b = bytes.Repeat([]byte{0xff}, n) // high bytes around it
				}
				b[at] = byte(c)
				want := false
				for _, x := range b {
					want = want || x < ' '
				}
				if got := hasControl(b); got != want {
					t.Fatalf("hasControl(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
