package jsonl

import "bytes"

// Role is a message role as a small integer: the index keeps one for every
// message entry so that walks tell roles apart without decoding, and
// validate checks a message's fields by it.
type Role uint8

// The message roles, with the two that are no role of Pi's.
const (
	NoRole    Role = iota // not a message, or a "role" that is absent or not a string
	OtherRole             // a string that is not a role Pi knows
	SystemRole
	UserRole
	AssistantRole
	ToolResultRole
	BashExecutionRole
	CustomRole
	BranchSummaryRole
	CompactionSummaryRole
	HookMessageRole // v2 name of CustomRole
)

var roleNames = [...]string{NoRole: "", OtherRole: "", SystemRole: RoleSystem, UserRole: RoleUser,
	AssistantRole: RoleAssistant, ToolResultRole: RoleToolResult, BashExecutionRole: RoleBashExecution,
	CustomRole: RoleCustom, BranchSummaryRole: RoleBranchSummary, CompactionSummaryRole: RoleCompactionSummary,
	HookMessageRole: RoleHookMessage}

// String returns the role's name as written in files, "" for NoRole and
// OtherRole.
func (r Role) String() string { return roleNames[r] }

// RoleOf returns the role that the raw JSON value of a message's "role" key
// names, decoded as JSON.parse reads it. It does not allocate unless the
// value holds an escape.
func RoleOf(raw []byte) Role {
	if len(raw) < 2 || raw[0] != '"' {
		return NoRole
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return parseRole(inner)
	}
	name, ok := DecodeString(raw)
	if !ok {
		return NoRole
	}
	return parseRole([]byte(name))
}

func parseRole(name []byte) Role {
	switch string(name) {
	case RoleUser:
		return UserRole
	case RoleAssistant:
		return AssistantRole
	case RoleToolResult:
		return ToolResultRole
	}
	for r := SystemRole; r <= HookMessageRole; r++ {
		if roleNames[r] == string(name) {
			return r
		}
	}
	return OtherRole
}
