package jsonl

import (
	"reflect"
	"testing"
)

// memoSession has a compaction and two context edits, one with content.
const memoSession = `{"type":"session","version":3,"id":"s","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-12-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-12-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"yo"}]}}
{"type":"compaction","id":"c1","parentId":"a2","timestamp":"2026-12-01T00:00:03.000Z","summary":"s","firstKeptEntryId":"a2","tokensBefore":1}
{"type":"context_edit","id":"e1","parentId":"c1","timestamp":"2026-12-01T00:00:04.000Z","targetId":"a2","replacement":{"content":[{"type":"text","text":"short"}]}}
{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-12-01T00:00:05.000Z","targetId":"a1","replacement":null}
`

// TestSelectMemoSelectsAsSelect: a selection made through the memo, first
// filling it and then from it, is Select's; a full memo keeps nothing more.
func TestSelectMemoSelectsAsSelect(t *testing.T) {
	ix := indexString(t, memoSession)
	leaf := ix.ActiveLeaf()
	want, err := ix.Select(leaf)
	if err != nil {
		t.Fatal(err)
	}
	m := newSelectMemo()
	for round := range 2 {
		got, err := ix.selectWith(leaf, m)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round %d: %+v, Select gives %+v", round, got, want)
		}
	}
	if len(m.refs) != 3 {
		t.Errorf("the memo holds %d entries, want the compaction and both edits", len(m.refs))
	}
	full := &selectMemo{refs: map[int32]memoRef{}, bytes: selectMemoBytes}
	if got, err := ix.selectWith(leaf, full); err != nil || !reflect.DeepEqual(got, want) || len(full.refs) != 0 {
		t.Errorf("a full memo: %+v, %v, %d kept", got, err, len(full.refs))
	}
}
