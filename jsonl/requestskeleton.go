package jsonl

import "hash/maphash"

// skeleton is one llm message (after ConvertToLlm) as the request check
// reads it: its role, and what TransformMessages' tool accounting reads.
// Tool call ids are known by their hashes (callHash): the walk matches
// results to calls by them, and a problem reads its id back from its
// result (Index.resultCallID).
type skeleton struct {
	role   Role     // SystemRole, UserRole, AssistantRole or ToolResultRole
	failed bool     // assistant: stopped with "error" or "aborted", which the transform drops
	calls  []uint64 // assistant: the hashes of its tool calls' ids, in order
	callID uint64   // tool result: the hash of the id of the call it answers
}

// callSeed hashes tool call ids for the request check. Eight bytes a call
// cost less to keep and to look up than its id (issue 28); a collision,
// with odds of 2⁻⁶⁴, would only pair the wrong call and result.
var callSeed = maphash.MakeSeed()

// callHash is the hash of tool call id.
func callHash(id string) uint64 { return maphash.String(callSeed, id) }

// callHashOf is callHash of the text of the raw JSON value.
func callHashOf(raw []byte) uint64 { return HashText(callSeed, raw) }

// HashText is maphash.String(seed, s) of the text s of the raw JSON value
// (DecodeString's, "" when it is no string), hashed in place, without
// making s, when the value holds no escape.
func HashText(seed maphash.Seed, raw []byte) uint64 {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if inner := raw[1 : len(raw)-1]; !hasEscapeOrInvalid(inner) {
			return maphash.Bytes(seed, inner)
		}
	}
	s, _ := DecodeString(raw)
	return maphash.String(seed, s)
}

// scannedSkeleton is a skeleton as a LoadIndexer keeps it, in 16 bytes:
// its calls are the index's scannedCalls[first : first+n].
type scannedSkeleton struct {
	role   Role // NoRole: none kept
	failed bool
	n      uint16
	first  uint32
	callID uint64
}

// skeleton is s with its calls, which calls holds.
func (s scannedSkeleton) skeleton(calls []uint64) skeleton {
	sk := skeleton{role: s.role, failed: s.failed, callID: s.callID}
	if s.n > 0 {
		end := int(s.first) + int(s.n)
		sk.calls = calls[s.first:end:end]
	}
	return sk
}

// skeletonsOf is what the check reads of projected messages as they are
// converted for the model (ConvertToLlm), without converting them: a
// message sent as user text, a bash execution's with its output, needs
// only its role.
func skeletonsOf(msgs []Object) []skeleton {
	out := make([]skeleton, 0, len(msgs))
	for _, m := range msgs {
		if role, ok := llmRole(m); ok {
			out = append(out, skeletonOfMessage(m, role))
		}
	}
	return out
}

// skeletonOfMessage is the skeleton of message m of the given role.
func skeletonOfMessage(m Object, role Role) skeleton {
	s := skeleton{role: role}
	switch role {
	case AssistantRole:
		r := m.String("stopReason")
		s.failed = r == "error" || r == "aborted"
		calls, _ := ToolCalls(m.Get("content"))
		if len(calls) > 0 {
			s.calls = make([]uint64, len(calls))
			for k, call := range calls {
				s.calls[k] = callHash(call.ID)
			}
		}
	case ToolResultRole:
		s.callID = callHash(m.String("toolCallId"))
	}
	return s
}

// skeletonOf is the skeleton of entry i's own messages, no edit applied:
// knownSkeleton's, or else a plain message entry of one of the four roles
// the model is sent as they are is read from its message object alone (no
// migration touches those fields), and any other entry is decoded and
// projected. A skeleton known or read is returned in one, whose contents
// the next call replaces.
func (ix *Index) skeletonOf(i int, one *[1]skeleton) ([]skeleton, error) {
	if s, ok := ix.knownSkeleton(i, one); ok {
		return s, nil
	}
	n := ix.nodes[i]
	if n.typ != TypeMessage || !n.plain || (n.role != AssistantRole && n.role != ToolResultRole) {
		return ix.projectedSkeletons(i)
	}
	err := ix.withMessage(i, func(msg []byte) (err error) {
		one[0], err = readSkeleton(msg, n.role)
		return err
	})
	if err != nil {
		return nil, &PosError{File: ix.Name, Line: int(n.line), Offset: n.offset, Err: err}
	}
	return one[:], nil
}

// knownSkeleton is the skeleton of entry i's own messages when the index
// knows it without a read: none for a kind of entry that adds no message,
// the role of a plain user or system message, what a LoadIndexer kept of a
// plain assistant message or tool result. It is returned in one, as by
// skeletonOf; ok is false when the entry must be read.
func (ix *Index) knownSkeleton(i int, one *[1]skeleton) (s []skeleton, ok bool) {
	n := ix.nodes[i]
	switch {
	case kinds[n.typ].messages == nil:
		return nil, true
	case n.typ != TypeMessage || !n.plain:
		return nil, false
	case n.role == SystemRole || n.role == UserRole:
		one[0] = skeleton{role: n.role}
	case (n.role == AssistantRole || n.role == ToolResultRole) && i < len(ix.scanned) && ix.scanned[i].role != NoRole:
		one[0] = ix.scanned[i].skeleton(ix.scannedCalls)
	default:
		return nil, false
	}
	return one[:], true
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
		s.callID = callHashOf(callID)
	}
	return s, err
}

// skeletonOfFields is readSkeleton's skeleton of a message object read by
// a Reader, from the fields it kept of it (m), without a second walk. Its
// calls are appended to room[:0] (room may be nil).
func skeletonOfFields(role Role, m *MessageFields, room []uint64) skeleton {
	s := skeleton{role: role}
	switch role {
	case AssistantRole:
		r, _ := DecodeString(m.StopReason)
		s.failed = r == "error" || r == "aborted"
		if len(m.ToolCalls) > 0 {
			s.calls = room[:0]
			for _, call := range m.ToolCalls {
				s.calls = append(s.calls, callHashOf(call.ID))
			}
		}
	case ToolResultRole:
		s.callID = callHashOf(m.ToolCallID)
	}
	return s
}

// readCallIDs reads the content value at raw[i] and returns the hashes of
// the ids of its tool call blocks (see ToolCalls) and the index just past
// it. Content that is not an array holds none.
func readCallIDs(raw []byte, i int) ([]uint64, int, error) {
	if i >= len(raw) || raw[i] != '[' {
		end, err := SkipValue(raw, i)
		return nil, end, err
	}
	var ids []uint64
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
			ids = append(ids, callHashOf(id))
		}
		return end, err
	})
	return ids, end, err
}
