package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"testing"
)

// FuzzSkimMatchesDecode: for every line the skim accepts, each field it
// keeps is the value a plain decode gives (encoding/json into a map of raw
// values), byte for byte, and its strings decode to what encoding/json
// decodes once the line is made UTF-8 as Node's decoder makes it. With a key
// written twice the last value wins, as in JSON.parse (and in the map); the
// fields of the message are those of that value.
func FuzzSkimMatchesDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"label","id":"a\u0062","parentId":null,"targetId":"t","label":"x","version":3}`,
		`{"type":"message","id":"1","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`,
		`{"\u0074ype":"compaction","firstKeptEntryId":"\ud83d\ude00","fromId":"x\"y"}`,
		`{"id":"a","id":"b","message":{"role":"user"},"message":{"content":null}}`,
		`{"message":{"role":"assistant","role":"user","content":"c"},"message":"s"}`,
		`{"type":"message","timestamp":"t","message":{"role":"toolResult","toolCallId":"c","toolName":"n","stopReason":"stop"}}`,
		`{"type":"custom_message","content":[1],"firstKeptEntryIndex":4}`,
		` {"type":"branch_summary","fromId":"\/p","parentId":7 , "version":"3"} `,
		"{\"type\":\"label\",\"id\":\"cut \xe2\x82\",\"label\":\"\xff\xfe\\u0041 \xed\xa0\x80\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		eachPath(func(path string) {
			var s skim
			if !new(lineSkimmer).skim(b, &s).OK() {
				return
			}
			var m map[string]stdjson.RawMessage
			if err := stdjson.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: skim accepted %q, encoding/json: %v", path, b, err)
			}
			checkSkimTop(t, path, b, &s, m)
			checkSkimMessage(t, path, b, &s, m["message"])
		})
	})
}

// checkSkimTop compares the top-level fields the skim keeps with the map.
func checkSkimTop(t *testing.T, path string, b []byte, s *skim, m map[string]stdjson.RawMessage) {
	t.Helper()
	fields := map[string][]byte{"type": s.Type, "id": s.ID, "parentId": s.ParentID, "version": s.Version, "label": s.Label, "message": s.Message,
		"timestamp": s.Timestamp, "content": s.Content, "firstKeptEntryIndex": s.FirstKeptIndex}
	for k := RefTarget; k < NumRefKeys; k++ {
		fields[k.String()] = s.Refs[k]
	}
	if s.Refs[NoRef] != nil {
		t.Errorf("%s: %q: skim kept %q as no reference key", path, b, s.Refs[NoRef])
	}
	for key, got := range fields {
		checkSkimValue(t, path, b, key, got, m[key])
	}
}

// checkSkimMessage compares the message fields the skim keeps with a plain
// decode of the message, when it is an object.
func checkSkimMessage(t *testing.T, path string, b []byte, s *skim, raw stdjson.RawMessage) {
	t.Helper()
	var msg map[string]stdjson.RawMessage
	if len(raw) == 0 || raw[0] != '{' {
		msg = nil
	} else if err := stdjson.Unmarshal(raw, &msg); err != nil {
		t.Fatalf("%s: %q: message: %v", path, b, err)
	}
	checkSkimValue(t, path, b, "message.role", s.Msg.Role, msg["role"])
	checkSkimValue(t, path, b, "message.content", s.Msg.Content, msg["content"])
	checkSkimValue(t, path, b, "message.toolCallId", s.Msg.ToolCallID, msg["toolCallId"])
	checkSkimValue(t, path, b, "message.toolName", s.Msg.ToolName, msg["toolName"])
	checkSkimValue(t, path, b, "message.stopReason", s.Msg.StopReason, msg["stopReason"])
	if msg != nil {
		if at := s.MessageOffset; at < 0 || at+len(s.Message) > len(b) || !bytes.Equal(b[at:at+len(s.Message)], s.Message) {
			t.Errorf("%s: %q: MessageOffset %d does not point at the message", path, b, at)
		}
	}
}

// checkSkimValue compares one kept value with the decode's: the same raw
// bytes, and for a string the same decoded text.
func checkSkimValue(t *testing.T, path string, b []byte, key string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
		t.Errorf("%s: %q: skim keeps %s = %q, a plain decode %q", path, b, key, got, want)
		return
	}
	// Pi decodes the file as UTF-8 before JSON.parse reads it: the text of a
	// string is a plain decode of it after the standard's decoder.
	var str string
	if len(want) == 0 || want[0] != '"' || stdjson.Unmarshal(whatwgDecode(want), &str) != nil {
		return
	}
	if dec, ok := DecodeString(got); !ok || dec != str {
		t.Errorf("%s: %q: %s decodes to %q (ok %v), encoding/json %q", path, b, key, dec, ok, str)
	}
}
