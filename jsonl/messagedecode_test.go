package jsonl

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
)

// checkDecodeMessage asserts that DecodeMessage, when it takes raw, gives
// what Unmarshal gives; it reports whether it took it.
func checkDecodeMessage(t *testing.T, raw []byte) bool {
	t.Helper()
	got, ok := DecodeMessage(raw)
	if !ok {
		if _, blocks, ok, _ := DecodeMessageBlocks(raw); ok || blocks != nil {
			t.Fatalf("DecodeMessageBlocks took %q, which DecodeMessage refuses (blocks %#v)", raw, blocks)
		}
		return false
	}
	var want Message
	if err := Unmarshal(raw, &want); err != nil {
		t.Fatalf("DecodeMessage took %q, which Unmarshal refuses: %v", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeMessage(%q) =\n%#v\nUnmarshal gives\n%#v", raw, got, want)
	}
	checkDecodeMessageBlocks(t, raw, got)
	return true
}

// checkDecodeMessageBlocks holds DecodeMessageBlocks to DecodeMessage (m,
// which took raw) and then DecodeBlocks of its content.
func checkDecodeMessageBlocks(t *testing.T, raw []byte, m Message) {
	t.Helper()
	got, blocks, ok, blocksOK := DecodeMessageBlocks(raw)
	want, wantOK := DecodeBlocks(m.Content)
	if !ok || !reflect.DeepEqual(got, m) || blocksOK != wantOK || !reflect.DeepEqual(blocks, want) {
		t.Fatalf("DecodeMessageBlocks(%q) = %v, %#v, %v; DecodeBlocks of its content gives %#v, %v", raw, ok, blocks, blocksOK, want, wantOK)
	}
}

// TestDecodeMessageAgreesOnCorpus decodes every message of the corpus both
// ways, and checks which messages DecodeMessage leaves to Unmarshal.
func TestDecodeMessageAgreesOnCorpus(t *testing.T) {
	taken, messages := 0, 0
	forCorpusMessages(t, func(m RawMessage) {
		messages++
		if checkDecodeMessage(t, m) {
			taken++
		}
	})
	t.Logf("DecodeMessage took %d of the corpus's %d messages", taken, messages)
	if taken < messages/2 {
		t.Errorf("DecodeMessage took only %d of %d messages", taken, messages)
	}
	for _, m := range []string{
		`{"role":"user","Role":"x"}`, `{"role":"user","rol\u0065":"x"}`, `{"role":"user","role":"x"}`,
		`{"role":"user","content":null}`, `{"role":5}`, `{"role":"assistant","usage":{"input":"1"}}`,
		`{"role":"assistant","usage":{"cost":{"Total":1}}}`, `{"role":"bashExecution","exitCode":1.5}`,
		`{"role":"system","sections":{}}`, `{"role":"\ud800"}`, "{\"role\":\"\xff\"}",
		`{"role":"user"} x`, `[]`, ``,
	} {
		if _, ok := DecodeMessage([]byte(m)); ok {
			t.Errorf("DecodeMessage took %s", m)
		}
	}
	for _, m := range []string{
		`{}`, ` { "role" : "user" , "content" : [ 1 ] } `, `{"role":"user","content":"\ud800"}`,
		`{"role":"assistant","content":[{"type":"text","text":"a"}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":2.5,"cacheRead":0,"cacheWrite":1e3,"totalTokens":-4,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"stop","timestamp":1767225651360,"extra":{"a":1}}`,
		`{"role":"toolResult","toolCallId":"c","toolName":"bash","content":"x","details":{"diff":"-a"},"isError":true}`,
		`{"role":"bashExecution","command":"ls","output":"a\nb","exitCode":-2,"cancelled":false,"truncated":true,"fullOutputPath":"/t","excludeFromContext":true}`,
		`{"role":"custom","customType":"t","display":false,"content":"c","tokensBefore":12}`,
	} {
		if !checkDecodeMessage(t, []byte(m)) {
			t.Errorf("DecodeMessage left %s to Unmarshal", m)
		}
	}
}

// FuzzDecodeMessage holds DecodeMessage to Unmarshal: whatever valid JSON it takes, it
// decodes as Unmarshal does.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range []string{
		`{"role":"assistant","content":[{"type":"text","text":"a"}],"usage":{"input":1,"output":2.5,"cost":{"total":0.3}},"stopReason":"stop","timestamp":1}`,
		`{"role":"bashExecution","command":"ls","output":"a\nb","exitCode":-2,"cancelled":false,"display":true,"tokensBefore":1e-3}`,
		`{"role":"toolResult","toolCallId":"c","details":{"x":[]},"isError":true,"X":1}`,
	} {
		f.Add([]byte(m))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if strings.Count(string(raw), "[")+strings.Count(string(raw), "{") > 1000 {
			return // the decoder's depth limit is Unmarshal's business, not this target's
		}
		if !json.Valid(raw) {
			DecodeMessage(raw) // invalid JSON is outside its contract (no indexed line holds it); it must only not panic
			return
		}
		checkDecodeMessage(t, raw)
	})
}

// forCorpusMessages calls each with the message object of every line of the
// corpus that holds one.
func forCorpusMessages(t *testing.T, each func(message RawMessage)) {
	t.Helper()
	files, _ := filepath.Glob(testref.Corpus("*/*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no corpus sessions")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if o, err := ParseObject(sc.Bytes()); err == nil {
				if m := o.Get("message"); len(m) > 0 && m[0] == '{' {
					each(m)
				}
			}
		}
		fh.Close()
	}
}
