package repair

import (
	"github.com/pitool/pitool/jsonl"
)

// checkContent reports what is wrong inside one entry: its timestamp, and a
// message's role and content type.
func checkContent(e *entry, f *jsonl.Fields, fs *findings) {
	checkTimestamp(e, f.Timestamp, fs)
	switch {
	case e.typ == jsonl.TypeMessage:
		checkMessage(e, f, fs)
	case e.typ == jsonl.TypeCustomMessage:
		if k := kindOf(f.Content); k != 's' && k != 'a' && k != 0 && k != 'n' {
			fs.add("message.content-type", e.line, e.off, "custom_message %s has content that is neither a string nor an array", e.id)
		}
	}
}

func checkTimestamp(e *entry, raw []byte, fs *findings) {
	if isoMillisString(raw) {
		return
	}
	if ts, ok := jsonl.DecodeString(raw); ok && validTimestamp(ts) {
		return
	}
	what := "entry " + e.id
	if e.header {
		what = "the header"
	}
	if raw == nil {
		fs.add("timestamp.invalid", e.line, e.off, "%s has no timestamp", what)
		return
	}
	fs.add("timestamp.invalid", e.line, e.off, "%s has a timestamp that does not parse: %s", what, clip(raw))
}

// isoMillisString reports whether a raw value is a string in Pi's own form
// (isoMillis), written without escapes.
func isoMillisString(raw []byte) bool {
	return len(raw) == len(isoShape)+2 && raw[0] == '"' && isoMillis(raw[1:len(raw)-1])
}

// isoMillis accepts Pi's own form, 2026-01-02T03:04:05.678Z, without parsing.
func isoMillis(ts []byte) bool {
	if len(ts) != 24 {
		return false
	}
	for k, c := range ts {
		want := isoShape[k]
		if want == '9' && (c < '0' || c > '9') || want != '9' && c != want {
			return false
		}
	}
	return ts[5] <= '1' && ts[8] <= '3' && ts[11] <= '2' && ts[14] <= '5' && ts[17] <= '5'
}

// isoShape is Pi's timestamp form, 9 standing for any digit.
const isoShape = "9999-99-99T99:99:99.999Z"

// validTimestamp accepts what JavaScript's Date parses.
func validTimestamp(ts string) bool {
	if isoMillis([]byte(ts)) {
		return true
	}
	_, ok := jsonl.ParseTimestamp(ts)
	return ok
}

func checkMessage(e *entry, f *jsonl.Fields, fs *findings) {
	switch {
	case f.Message == nil || f.Message[0] != '{':
		fs.add("message.role-missing", e.line, e.off, "message entry %s has no message object", e.id)
		return
	case e.role == jsonl.NoRole:
		fs.add("message.role-missing", e.line, e.off, "message entry %s has no role", e.id)
		return
	case e.role == jsonl.OtherRole:
		fs.add("message.role-unknown", e.line, e.off, "message entry %s has an unknown role %s", e.id, clip(f.Msg.Role))
		return
	}
	k := kindOf(f.Msg.Content)
	if k == 0 || k == 'n' {
		return
	}
	switch e.role {
	case jsonl.AssistantRole, jsonl.ToolResultRole:
		if k != 'a' {
			fs.add("message.content-type", e.line, e.off, "message %s: %s content must be an array of blocks", e.id, e.role)
		}
	case jsonl.UserRole, jsonl.SystemRole, jsonl.CustomRole:
		if k != 'a' && k != 's' {
			fs.add("message.content-type", e.line, e.off, "message %s: %s content must be a string or an array of blocks", e.id, e.role)
		}
	}
}

// kindOf is the JSON kind of a value: 's'tring, 'a'rray, 'o'bject, 'n'ull,
// 'x' for numbers and booleans, 0 when absent.
func kindOf(raw []byte) byte {
	if raw == nil {
		return 0
	}
	switch raw[0] {
	case '"':
		return 's'
	case '[':
		return 'a'
	case '{':
		return 'o'
	case 'n':
		return 'n'
	}
	return 'x'
}

// clip returns at most 40 bytes of a value for a message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(jsonl.ToValidUTF8(b[:40])) + "…"
	}
	return string(b)
}
