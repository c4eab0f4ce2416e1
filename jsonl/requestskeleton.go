package jsonl

// skeleton is one llm message (after ConvertToLlm) as the request check
// reads it: its role, and what TransformMessages' tool accounting reads.
type skeleton struct {
	role   Role     // SystemRole, UserRole, AssistantRole or ToolResultRole
	failed bool     // assistant: stopped with "error" or "aborted", which the transform drops
	calls  []string // assistant: the ids of its tool calls, in order
	callID string   // tool result: the call it answers
}

// skeletonsOf converts projected messages for the model and keeps of each
// what the check reads.
func skeletonsOf(msgs []Object) []skeleton {
	llm := ConvertToLlm(msgs)
	out := make([]skeleton, len(llm))
	for k, m := range llm {
		out[k] = skeletonOfMessage(m, RoleOf(m.Get("role")))
	}
	return out
}

// skeletonOfMessage is the skeleton of message m of the given role. Its
// strings are decoded copies: a kept skeleton holds no entry's line.
func skeletonOfMessage(m Object, role Role) skeleton {
	s := skeleton{role: role}
	switch role {
	case AssistantRole:
		r := m.String("stopReason")
		s.failed = r == "error" || r == "aborted"
		calls, _ := ToolCalls(m.Get("content"))
		if len(calls) > 0 {
			s.calls = make([]string, len(calls))
			for k, call := range calls {
				s.calls[k] = call.ID
			}
		}
	case ToolResultRole:
		s.callID = m.String("toolCallId")
	}
	return s
}

// skeletonOf is the skeleton of entry i's own messages, no edit applied. An
// entry of a kind that adds no message is not read; a plain message entry of one of the four roles the model is sent as they are
// is read from its message object alone (no migration touches those fields,
// and a user or system message needs no read at all); any other entry is
// decoded and projected.
func (ix *Index) skeletonOf(i int) ([]skeleton, error) {
	n := ix.nodes[i]
	if kinds[n.typ].messages == nil {
		return nil, nil // a kind of entry that adds no message
	}
	if n.typ != TypeMessage || !n.plain {
		return ix.projectedSkeletons(i)
	}
	switch n.role {
	case SystemRole, UserRole:
		return []skeleton{{role: n.role}}, nil
	case AssistantRole, ToolResultRole:
		raw, err := ix.rawMessage(i)
		if err != nil {
			return nil, err
		}
		m, err := ParseObject(raw)
		if err != nil {
			return nil, &PosError{File: ix.Name, Line: int(n.line), Offset: n.offset, Err: err}
		}
		return []skeleton{skeletonOfMessage(m, n.role)}, nil
	}
	return ix.projectedSkeletons(i)
}

// projectedSkeletons is skeletonOf for any entry: decoded, migrated and
// projected as the context builds it.
func (ix *Index) projectedSkeletons(i int) ([]skeleton, error) {
	e, err := ix.Decode(i)
	if err != nil {
		return nil, err
	}
	msgs, err := projectWithReplacement(e, nil, false)
	if err != nil {
		return nil, err
	}
	return skeletonsOf(msgs), nil
}
