package jsonl

import (
	"encoding/json"
	"reflect"
	"testing"
)

// skeletonCases are messages whose skeleton the one-walk reader must read as
// the decoded object does: repeated keys, escapes in keys, types and ids,
// content that is no array, blocks that are no object, ids that are no string.
var skeletonCases = []struct {
	role Role
	msg  string
}{
	{AssistantRole, `{"role":"assistant","content":[{"type":"thinking","thinking":"a \"quoted\" {thought}"},{"type":"text","text":"x"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a]}"}}],"stopReason":"toolUse"}`},
	{AssistantRole, `{"role":"assistant","content":[{"type":"toolCall","id":"c1"},{"type":"toolCall","id":"c2"}],"stopReason":"error"}`},
	{AssistantRole, `{"role":"assistant","content":[{"type":"toolCall","id":"c1"}],"stopReason":"abor\u0074ed"}`},
	{AssistantRole, `{"role":"assistant","content":[{"type":"toolC\u0061ll","id":"c\u0031"},{"type":"toolCall","type":"text","id":"c2"},{"type":"text","type":"toolCall","id":"c3","id":"c4"}]}`},
	{AssistantRole, `{"role":"assistant","content":[{"type":"toolCall","id":"c1"}],"content":"text now","stopReason":"stop"}`},
	{AssistantRole, `{"role":"assistant","content":"[{\"type\":\"toolCall\",\"id\":\"x\"}]"}`},
	{AssistantRole, `{"role":"assistant","content":[1,"toolCall",null,[{"type":"toolCall","id":"n"}],{"type":"toolCall","id":7},{"type":"toolCall"}],"stopReason":null}`},
	{AssistantRole, `{"role":"assistant","stopReason":"error","stopReason":"stop","content":[ { "type" : "toolCall" , "id" : "s" } ]}`},
	{AssistantRole, `{"role":"assistant","content":[],"stop\u0052eason":"aborted"}`},
	{AssistantRole, `{"role":"assistant","content":null}`},
	{ToolResultRole, `{"role":"toolResult","toolCallId":"c1","content":[{"type":"text","text":"ok"}]}`},
	{ToolResultRole, `{"role":"toolResult","toolCallId":"c1","toolCallId":"c\u00e9","content":"x"}`},
	{ToolResultRole, `{"role":"toolResult","tool\u0043allId":"k","content":[]}`},
	{ToolResultRole, `{"role":"toolResult","toolCallId":5}`},
}

// TestReadSkeletonMatchesDecoded holds readSkeleton, the one walk the request
// check makes over a plain message, to the skeleton of the decoded message.
func TestReadSkeletonMatchesDecoded(t *testing.T) {
	for _, c := range skeletonCases {
		m, err := ParseObject([]byte(c.msg))
		if err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		want := skeletonOfMessage(m, c.role)
		got, err := readSkeleton([]byte(c.msg), c.role)
		if err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.msg, got, want)
		}
	}
}

// TestReadSkeletonRefusesBrokenJSON: the walk reports what it cannot read
// instead of reading a call out of it.
func TestReadSkeletonRefusesBrokenJSON(t *testing.T) {
	for _, msg := range []string{`{"content":[{"type":"toolCall","id":"a"}`, `{"content":[{"type":"toolCall","id":"a"},}`, `["role"]`, `{"content" [1]}`} {
		if s, err := readSkeleton([]byte(msg), AssistantRole); err == nil {
			t.Errorf("%s: read as %+v, no error", msg, s)
		}
	}
}

// FuzzReadSkeleton: on any valid JSON object, the one walk reads the skeleton
// the decoded object gives.
func FuzzReadSkeleton(f *testing.F) {
	for _, c := range skeletonCases {
		f.Add(c.msg, c.role == AssistantRole)
	}
	f.Fuzz(func(t *testing.T, msg string, assistant bool) {
		if !json.Valid([]byte(msg)) {
			return
		}
		m, err := ParseObject([]byte(msg))
		if err != nil {
			return
		}
		role := ToolResultRole
		if assistant {
			role = AssistantRole
		}
		got, err := readSkeleton([]byte(msg), role)
		if err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if want := skeletonOfMessage(m, role); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", msg, got, want)
		}
	})
}

// TestSkeletonsOfMatchConverted holds skeletonsOf, which reads the roles
// ConvertToLlm would give without converting, to the skeletons of the
// converted messages: every role it converts, drops or passes through.
func TestSkeletonsOfMatchConverted(t *testing.T) {
	var msgs []Object
	for _, raw := range []string{
		`{"role":"bashExecution","command":"ls","output":"a\nb","exitCode":0}`,
		`{"role":"bashExecution","command":"ls","output":"","excludeFromContext":true}`,
		`{"role":"bashExecution","command":"ls","excludeFromContext":0}`,
		`{"role":"custom","customType":"x","content":"hi"}`,
		`{"role":"branchSummary","summary":"s"}`,
		`{"role":"compactionSummary","summary":"s"}`,
		`{"role":"system","content":"sys"}`,
		`{"role":"user","content":"u"}`,
		`{"role":"\u0075ser","content":"u"}`,
		`{"role":"hookMessage","content":"h"}`,
		`{"role":7}`,
		`{"content":"no role"}`,
	} {
		m, err := ParseObject([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	for _, c := range skeletonCases {
		m, err := ParseObject([]byte(c.msg))
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	for _, m := range msgs {
		var want []skeleton
		for _, llm := range ConvertToLlm([]Object{m}) {
			want = append(want, skeletonOfMessage(llm, RoleOf(llm.Get("role"))))
		}
		if got := skeletonsOf([]Object{m}); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: skeletonsOf gives %+v, the converted message %+v", m.AppendJSON(nil), got, want)
		}
	}
}
