package jsonl

import (
	"reflect"
	"testing"
)

func TestBlockType(t *testing.T) {
	for raw, want := range map[string]string{
		`"toolCall"`:       BlockToolCall,
		`"toolC\u0061ll"`:  BlockToolCall,
		`"\u0074ext"`:      BlockText,
		`"thinking"`:       BlockThinking,
		`"image"`:          BlockImage,
		`"tool_use"`:       "tool_use",
		`"a\nb"`:           "a\nb",
		`""`:               "",
		`null`:             "",
		`7`:                "",
		``:                 "",
		`"toolC\u00"`:      "", // not a valid string
		`"toolCall "`:      "toolCall ",
		`["toolCall"]`:     "",
		`"tool\u0043all"`:  BlockToolCall,
		`"\u0069mage"`:     BlockImage,
		`"th\u0069nking"`:  BlockThinking,
		`"toolCall\u0000"`: "toolCall\x00",
	} {
		if got := BlockType([]byte(raw)); got != want {
			t.Errorf("BlockType(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestBlockTypeDoesNotAllocate(t *testing.T) {
	raws := [][]byte{[]byte(`"text"`), []byte(`"toolCall"`), []byte(`"thinking"`), []byte(`"image"`), []byte(`7`)}
	allocs := testing.AllocsPerRun(100, func() {
		for _, raw := range raws {
			_ = BlockType(raw)
		}
	})
	if allocs != 0 {
		t.Errorf("BlockType allocates %v times for the types Pi writes", allocs)
	}
}

func TestToolCalls(t *testing.T) {
	content := RawMessage(`[{"type":"text","text":"toolCall"},{"type":"toolCall","id":"a","name":"read","arguments":{"path":"x"}},` +
		`"toolCall",{"type":"toolC\u0061ll","id":"b","name":"bash"},{"type":"thinking","thinking":"\u0041"},{"type":"toolCall","id":7}]`)
	calls, err := ToolCalls(content)
	if err != nil {
		t.Fatal(err)
	}
	var got [][3]string
	for _, c := range calls {
		got = append(got, [3]string{c.ID, c.Name, string(c.Arguments)})
	}
	want := [][3]string{{"a", "read", `{"path":"x"}`}, {"b", "bash", ""}, {"", "", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ToolCalls = %q, want %q", got, want)
	}
	if raw := string(calls[2].Block.Get("id")); raw != "7" {
		t.Errorf("the block keeps the raw id: got %s", raw)
	}
	if calls[1].Arguments != nil {
		t.Errorf("absent arguments should be nil, got %q", calls[1].Arguments)
	}
}

func TestToolCallsNone(t *testing.T) {
	for _, content := range []string{``, `null`, `"toolCall"`, `{"type":"toolCall"}`, `[]`,
		`[{"type":"text","text":"hi"}]`, `[{"type":"toolCall"`} {
		if calls, err := ToolCalls(RawMessage(content)); len(calls) != 0 || (err != nil) != (content == `[{"type":"toolCall"`) {
			t.Errorf("ToolCalls(%s) = %v, %v", content, calls, err)
		}
	}
}

func TestTextContent(t *testing.T) {
	if got := string(TextContent("a \"b\"")); got != `[{"type":"text","text":"a \"b\""}]` {
		t.Errorf("TextContent = %s", got)
	}
}

func TestRoleOf(t *testing.T) {
	for raw, want := range map[string]Role{
		`"user"`:              UserRole,
		`"assistant"`:         AssistantRole,
		`"toolResult"`:        ToolResultRole,
		`"system"`:            SystemRole,
		`"bashExecution"`:     BashExecutionRole,
		`"custom"`:            CustomRole,
		`"branchSummary"`:     BranchSummaryRole,
		`"compactionSummary"`: CompactionSummaryRole,
		`"hookMessage"`:       HookMessageRole,
		`"\u0075ser"`:         UserRole,
		`"robot"`:             OtherRole,
		`""`:                  OtherRole,
		`"us\u00"`:            NoRole,
		``:                    NoRole,
		`null`:                NoRole,
		`1`:                   NoRole,
	} {
		if got := RoleOf([]byte(raw)); got != want {
			t.Errorf("RoleOf(%s) = %d, want %d", raw, got, want)
		}
	}
	for r := NoRole; r <= HookMessageRole; r++ {
		name := r.String()
		if (name == "") != (r == NoRole || r == OtherRole) {
			t.Errorf("Role(%d).String() = %q", r, name)
		}
		if name != "" && RoleOf(QuoteString(name)) != r {
			t.Errorf("RoleOf(%q) != %d", name, r)
		}
	}
}

func TestRoleOfDoesNotAllocate(t *testing.T) {
	raws := [][]byte{[]byte(`"assistant"`), []byte(`"toolResult"`), []byte(`"compactionSummary"`), []byte(`"robot"`)}
	if allocs := testing.AllocsPerRun(100, func() {
		for _, raw := range raws {
			_ = RoleOf(raw)
		}
	}); allocs != 0 {
		t.Errorf("RoleOf allocates %v times for a value without escapes", allocs)
	}
}
