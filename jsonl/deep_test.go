package jsonl

import (
	"reflect"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// TestUnmarshalDeep: values nested deeper than the decoder reads land raw in
// their RawMessage fields, in structs, pointers and slices, wherever they
// stand among the other members, which decode as the decoder decodes them.
func TestUnmarshalDeep(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	var m Message
	raw := `{"details":` + deep + `,"role":"toolResult","content":"x","toolName":"bash","ignored":` + deep + `,"usage":{"input":3}}`
	if err := Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	if string(m.Details) != deep || m.Role != "toolResult" || string(m.Content) != `"x"` || m.ToolName != "bash" || m.Usage == nil || m.Usage.Input != 3 {
		t.Errorf("message decoded as role %q, content %.20q, toolName %q, usage %+v, %d bytes of details", m.Role, m.Content, m.ToolName, m.Usage, len(m.Details))
	}
	var blocks []*Block
	raw = `[{"type":"text","text":"a"},{"type":"toolCall","arguments":` + deep + `,"name":"n"}]`
	if err := Unmarshal([]byte(raw), &blocks); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Text != "a" || string(blocks[1].Arguments) != deep || blocks[1].Name != "n" {
		t.Errorf("%d blocks decoded", len(blocks))
	}
	if err := Unmarshal([]byte(`{"role":`+deep+`}`), &m); err == nil {
		t.Error("a deep value for a string field decoded")
	}
}

// TestUnmarshalShallow: below the decoder's depth, Unmarshal is the decoder,
// errors included.
func TestUnmarshalShallow(t *testing.T) {
	for _, raw := range []string{`{"role":"user","content":[{"type":"text","text":"x"}],"ROLE":"assistant"}`, `{"role":1}`, `{"usage":{"input":"3"}}`, `{"details":` + strings.Repeat("[", 4000) + strings.Repeat("]", 4000) + `}`} {
		var got, want Message
		gotErr, wantErr := Unmarshal([]byte(raw), &got), json.Unmarshal([]byte(raw), &want)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%.60s: Unmarshal and the decoder differ (errors %v, %v)", raw, gotErr, wantErr)
		}
	}
}

// TestSessionCheckDeep: a header nested deeper than encoding/json reads is
// still a header, as Pi reads it, and deep non-objects are named as before.
func TestSessionCheckDeep(t *testing.T) {
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	header := `{"type":"session","version":3,"id":"s","x":` + deep + `,"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n"
	if reason := judgeSession([]byte(header), true); reason != "" {
		t.Errorf("a deep header: %s", reason)
	}
	if reason := judgeSession([]byte(deep+"\n"), true); !strings.Contains(reason, "is a JSON array") {
		t.Errorf("a deep array: %s", reason)
	}
}
