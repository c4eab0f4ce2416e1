package jsonl

import "testing"

// TestEntryTypesRoundTrip checks that every type's name maps back to it and
// that the names are the spec's: the header and Pi's eleven entry types.
func TestEntryTypesRoundTrip(t *testing.T) {
	want := []string{"session", "message", "custom_message", "branch_summary", "compaction", "context_edit",
		"model_change", "thinking_level_change", "usage", "custom", "label", "session_info"}
	if int(NumEntryTypes) != len(want)+1 {
		t.Fatalf("%d entry types, want %d and TypeUnknown", NumEntryTypes, len(want))
	}
	for i, name := range want {
		typ := EntryType(i + 1)
		if typ.String() != name || ParseEntryType(name) != typ {
			t.Errorf("type %d: name %q, parsed %d; want %q", typ, typ.String(), ParseEntryType(name), name)
		}
	}
	for _, name := range []string{"", "Message", "toolCall", "unknown"} {
		if got := ParseEntryType(name); got != TypeUnknown {
			t.Errorf("ParseEntryType(%q) = %v, want TypeUnknown", name, got)
		}
	}
}

// TestRefKeys checks each type's reference key against the spec, and that
// ParseRefKey reads back every key and nothing else, without allocating.
func TestRefKeys(t *testing.T) {
	want := map[EntryType]string{TypeBranchSummary: "fromId", TypeCompaction: "firstKeptEntryId",
		TypeContextEdit: "targetId", TypeLabel: "targetId"}
	for typ := TypeUnknown; typ < NumEntryTypes; typ++ {
		if got := typ.Ref().String(); got != want[typ] {
			t.Errorf("%v: reference key %q, want %q", typ, got, want[typ])
		}
	}
	for k := RefTarget; k < NumRefKeys; k++ {
		if got := ParseRefKey([]byte(k.String())); got != k {
			t.Errorf("ParseRefKey(%q) = %v", k.String(), got)
		}
	}
	for _, key := range []string{"", "id", "parentId", "targetID", "firstKeptEntryIndex"} {
		if got := ParseRefKey([]byte(key)); got != NoRef {
			t.Errorf("ParseRefKey(%q) = %v, want NoRef", key, got)
		}
	}
	key := []byte("fromId")
	if n := testing.AllocsPerRun(100, func() { ParseRefKey(key) }); n != 0 {
		t.Errorf("ParseRefKey allocates %v times", n)
	}
}

// TestEntryRef checks that an entry's reference is the value of its type's
// key, and that a type without one names none.
func TestEntryRef(t *testing.T) {
	for _, c := range []struct {
		line string
		typ  EntryType
		want string
	}{
		{`{"type":"label","targetId":"a","fromId":"b"}`, TypeLabel, "a"},
		{`{"type":"branch_summary","targetId":"a","fromId":"b"}`, TypeBranchSummary, "b"},
		{`{"type":"compaction","firstKeptEntryId":"c","targetId":"a"}`, TypeCompaction, "c"},
		{`{"type":"model_change","targetId":"a"}`, TypeModelChange, ""},
		{`{"type":"context_edit","targetId":7}`, TypeContextEdit, ""},
	} {
		obj, err := ParseObject([]byte(c.line))
		if err != nil {
			t.Fatal(err)
		}
		if got := (&Entry{Obj: obj, Type: c.typ}).Ref(); got != c.want {
			t.Errorf("%s: Ref() = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestContextRoles checks the roles of the messages the types make up.
func TestContextRoles(t *testing.T) {
	want := map[EntryType]Role{TypeCustomMessage: CustomRole, TypeBranchSummary: BranchSummaryRole,
		TypeCompaction: CompactionSummaryRole}
	for typ := TypeUnknown; typ < NumEntryTypes; typ++ {
		if got := typ.ContextRole(); got != want[typ] {
			t.Errorf("%v: context role %v, want %v", typ, got, want[typ])
		}
	}
}

// TestSkimKeepsRefs checks that the skim keeps every reference key, the
// last one written when a key repeats, as JSON.parse does.
func TestSkimKeepsRefs(t *testing.T) {
	line := []byte(`{"type":"label","targetId":"x","fromId":"f","firstKeptEntryId":"k","targ\u0065tId":"t"}`)
	var s skim
	if !new(lineSkimmer).skim(line, &s).OK() {
		t.Fatal("skim rejects a valid line")
	}
	want := [NumRefKeys]string{RefTarget: `"t"`, RefFrom: `"f"`, RefFirstKept: `"k"`}
	for k := NoRef; k < NumRefKeys; k++ {
		if string(s.Refs[k]) != want[k] {
			t.Errorf("%q: kept %s, want %s", k.String(), s.Refs[k], want[k])
		}
	}
}
