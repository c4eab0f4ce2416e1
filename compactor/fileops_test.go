package compactor

import (
	"reflect"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestFileOpsEscapedToolCall: a tool call whose type is written with a \u
// escape counts, as Pi's JSON.parse reads it; a block that only mentions
// "toolCall" in its text does not.
func TestFileOpsEscapedToolCall(t *testing.T) {
	msg, err := jsonl.ParseObject([]byte(`{"role":"assistant","content":[` +
		`{"type":"toolC\u0061ll","id":"c1","name":"read","arguments":{"path":"a.go"}},` +
		`{"type":"toolCall","id":"c2","name":"edit","arguments":{"path":"b.go"}},` +
		`{"type":"text","text":"not a \"toolCall\": {\"name\":\"write\"}"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var ops FileOps
	ops.AddFromMessage(msg)
	if !reflect.DeepEqual(ops.Read, []string{"a.go"}) || !reflect.DeepEqual(ops.Edited, []string{"b.go"}) || ops.Written != nil {
		t.Fatalf("read %q edited %q written %q", ops.Read, ops.Edited, ops.Written)
	}
}
