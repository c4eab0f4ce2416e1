package jsonl

import "unsafe"

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
		if i < len(ix.scanned) && ix.scanned[i].role != NoRole {
			return ix.scanned[i : i+1 : i+1], nil
		}
		var sk skeleton
		err := ix.withMessage(i, func(msg []byte) (err error) {
			sk, err = readSkeleton(msg, n.role)
			return err
		})
		if err != nil {
			return nil, &PosError{File: ix.Name, Line: int(n.line), Offset: n.offset, Err: err}
		}
		return []skeleton{sk}, nil
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

// readSkeleton is the skeleton of the message object msg of an assistant or
// a tool result, read in one walk that keeps nothing of msg: where a key is
// repeated the last one counts, as in JSON.parse.
func readSkeleton(msg []byte, role Role) (skeleton, error) {
	s := skeleton{role: role}
	var stopReason, callID []byte
	_, err := eachMember(msg, skipSpace(msg, 0), func(key string, v int) (int, error) {
		switch {
		case key == "content" && role == AssistantRole:
			calls, end, err := readCallIDs(msg, v)
			s.calls = calls
			return end, err
		case key == "stopReason":
			end, err := SkipValue(msg, v)
			stopReason = msg[v:end]
			return end, err
		case key == "toolCallId":
			end, err := SkipValue(msg, v)
			callID = msg[v:end]
			return end, err
		}
		return SkipValue(msg, v)
	})
	switch role {
	case AssistantRole:
		r, _ := DecodeString(stopReason)
		s.failed = r == "error" || r == "aborted"
	case ToolResultRole:
		s.callID, _ = DecodeString(callID)
	}
	return s, err
}

// skeletonOfFields is readSkeleton's skeleton of a message object read by
// a Reader, from the fields it kept of it (m), without a second walk.
func skeletonOfFields(role Role, m *MessageFields) skeleton {
	s := skeleton{role: role}
	switch role {
	case AssistantRole:
		r, _ := DecodeString(m.StopReason)
		s.failed = r == "error" || r == "aborted"
		if len(m.ToolCalls) > 0 {
			s.calls = make([]string, len(m.ToolCalls))
			for k, call := range m.ToolCalls {
				s.calls[k], _ = DecodeString(call.ID)
			}
		}
	case ToolResultRole:
		s.callID, _ = DecodeString(m.ToolCallID)
	}
	return s
}

// skeletonSize is the size of a skeleton struct.
const skeletonSize = int(unsafe.Sizeof(skeleton{}))

// bytes is about what a kept skeleton's strings cost.
func (s *skeleton) bytes() int {
	n := len(s.callID)
	for _, id := range s.calls {
		n += 16 + len(id)
	}
	return n
}

// readCallIDs reads the content value at raw[i] and returns the ids of its
// tool call blocks (see ToolCalls) and the index just past it. Content that
// is not an array holds none.
func readCallIDs(raw []byte, i int) ([]string, int, error) {
	if i >= len(raw) || raw[i] != '[' {
		end, err := SkipValue(raw, i)
		return nil, end, err
	}
	var ids []string
	end, err := eachElement(raw, i, func(v int) (int, error) {
		if raw[v] != '{' {
			return SkipValue(raw, v)
		}
		var typ, id []byte
		end, err := eachMember(raw, v, func(key string, v int) (int, error) {
			end, err := SkipValue(raw, v)
			switch key {
			case "type":
				typ = raw[v:end]
			case "id":
				id = raw[v:end]
			}
			return end, err
		})
		if err == nil && BlockType(typ) == BlockToolCall {
			s, _ := DecodeString(id)
			ids = append(ids, s)
		}
		return end, err
	})
	return ids, end, err
}
