package jsonl

import "bytes"

// EntryType is the type of a session line, as a small integer.
type EntryType uint8

// The entry types of a v3 session, plus the header and anything unknown.
// What pitool knows of each is its row of kinds, below.
const (
	TypeUnknown EntryType = iota
	TypeSession
	TypeMessage
	TypeCustomMessage
	TypeBranchSummary
	TypeCompaction
	TypeContextEdit
	TypeModelChange
	TypeThinkingLevelChange
	TypeUsage
	TypeCustom
	TypeLabel
	TypeSessionInfo
)

// kind is what pitool knows of one entry type, written once: the index,
// repair, redact, the exporter and the compactor read it through
// EntryType's methods, Entry.Ref, EntryMessages and EntryPreview.
type kind struct {
	name string // as written in the entry's "type"
	// ref is the key, besides parentId, whose value is another entry's id.
	ref RefKey
	// messages are the messages an entry adds to the model's context
	// before edits (Pi's sessionEntryToContextMessages); nil: none.
	messages func(*Entry) ([]Object, error)
	// role is the role of the message it adds, for the types that make one
	// up; NoRole for the rest and for a message entry (its message says).
	role Role
	// preview is the entry's one line in listings, given the id its
	// reference key names (Entry.Ref); nil: its type name.
	preview func(e *Entry, ref string) string
}

// kinds holds one row per EntryType. A new entry type of Pi's is a constant
// above and a row here (and a RefKey below if it names a new reference key).
var kinds = [...]kind{
	TypeUnknown: {},
	TypeSession: {name: "session"},
	TypeMessage: {name: "message", messages: messageMessages,
		preview: func(e *Entry, _ string) string { return messagePreview(e) }},
	TypeCustomMessage: {name: "custom_message", role: CustomRole, messages: customMessages,
		preview: func(e *Entry, _ string) string {
			return "custom:" + e.Obj.String("customType") + " " + oneLine(ExtractText(e.Obj.Get("content")))
		}},
	TypeBranchSummary: {name: "branch_summary", ref: RefFrom, role: BranchSummaryRole, messages: branchSummaryMessages,
		preview: func(e *Entry, _ string) string { return "branch summary: " + oneLine(e.Obj.String("summary")) }},
	TypeCompaction: {name: "compaction", ref: RefFirstKept, role: CompactionSummaryRole, messages: compactionMessages,
		preview: func(e *Entry, _ string) string { return "compaction: " + oneLine(e.Obj.String("summary")) }},
	TypeContextEdit: {name: "context_edit", ref: RefTarget,
		preview: func(_ *Entry, ref string) string { return "context edit of " + ref }},
	TypeModelChange: {name: "model_change",
		preview: func(e *Entry, _ string) string {
			return "model → " + e.Obj.String("provider") + "/" + e.Obj.String("modelId")
		}},
	TypeThinkingLevelChange: {name: "thinking_level_change",
		preview: func(e *Entry, _ string) string { return "thinking → " + e.Obj.String("thinkingLevel") }},
	TypeUsage:  {name: "usage"},
	TypeCustom: {name: "custom"},
	TypeLabel: {name: "label", ref: RefTarget,
		preview: func(e *Entry, ref string) string { return "label " + ref + " = " + e.Obj.String("label") }},
	TypeSessionInfo: {name: "session_info",
		preview: func(e *Entry, _ string) string { return "name: " + e.Obj.String("name") }},
}

// NumEntryTypes counts the entry types, TypeUnknown included: the types
// are TypeUnknown up to NumEntryTypes-1.
const NumEntryTypes = EntryType(len(kinds))

// String returns the type's name as written in files.
func (t EntryType) String() string { return kinds[t].name }

// Ref returns the key of an entry of type t, besides parentId, whose value
// is another entry's id; NoRef when it has none.
func (t EntryType) Ref() RefKey { return kinds[t].ref }

// ContextRole returns the role of the message an entry of type t adds to a
// context when its type makes one up: CustomRole for a custom_message,
// BranchSummaryRole and CompactionSummaryRole for the summaries. It is
// NoRole for a message entry, whose message has its own, and for the types
// that add no message.
func (t EntryType) ContextRole() Role { return kinds[t].role }

// EntryTypeOf returns the EntryType that the raw JSON value of a line's
// "type" key names, decoded as JSON.parse reads it: TypeUnknown when it is
// absent, not a string or no type's name. It does not allocate unless the
// value holds an escape.
func EntryTypeOf(raw []byte) EntryType {
	if len(raw) < 2 || raw[0] != '"' {
		return TypeUnknown
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return ParseEntryType(string(inner))
	}
	name, _ := DecodeString(raw)
	return ParseEntryType(name)
}

// ParseEntryType maps a type name to its EntryType; unknown names give TypeUnknown.
func ParseEntryType(name string) EntryType {
	for i := TypeSession; i < NumEntryTypes; i++ {
		if kinds[i].name == name {
			return i
		}
	}
	return TypeUnknown
}

// RefKey names a key whose value is the id of another entry: the keys of
// the tree besides parentId, which every entry has.
type RefKey uint8

// The reference keys; EntryType.Ref says which one each type has.
const (
	NoRef        RefKey = iota
	RefTarget           // "targetId": the entry a label or a context edit applies to
	RefFrom             // "fromId": the entry a branch summary comes back from
	RefFirstKept        // "firstKeptEntryId": the first entry a compaction keeps
)

var refKeyNames = [...]string{NoRef: "", RefTarget: "targetId", RefFrom: "fromId", RefFirstKept: "firstKeptEntryId"}

// NumRefKeys counts the reference keys, NoRef included, so that arrays
// indexed by RefKey can be sized by it.
const NumRefKeys = RefKey(len(refKeyNames))

// String returns the key as written in entries, "" for NoRef.
func (k RefKey) String() string { return refKeyNames[k] }

// ParseRefKey returns the reference key that name (unquoted, unescaped)
// spells, NoRef for any other key. It does not allocate.
func ParseRefKey(name []byte) RefKey {
	for k := RefTarget; k < NumRefKeys; k++ {
		if refKeyNames[k] == string(name) {
			return k
		}
	}
	return NoRef
}

// Ref returns the id the entry's reference key (see EntryType.Ref) names,
// "" when its type has none or the value is not a string.
func (e *Entry) Ref() string {
	if k := e.Type.Ref(); k != NoRef {
		return e.Obj.String(k.String())
	}
	return ""
}

// EntryMessages is Pi's sessionEntryToContextMessages: the messages one entry
// contributes to a context before edits.
func EntryMessages(e *Entry) ([]Object, error) {
	if f := kinds[e.Type].messages; f != nil {
		return f(e)
	}
	return nil, nil
}

// EntryPreview is a one-line description of an entry for listings: its role
// or type and the start of its text.
func EntryPreview(e *Entry) string {
	if f := kinds[e.Type].preview; f != nil {
		return f(e, e.Ref())
	}
	return e.TypeName()
}
