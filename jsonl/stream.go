package jsonl

// Selection is the compaction-aware choice of context entries at a leaf, made
// from the index alone: entries are numbers, decoded later one at a time.
// They are 4-byte entry numbers, half the bytes per path entry of an int
// (issue 16).
type Selection struct {
	Path     []int32 // root to leaf
	Entries  []int32 // the selected entries, in context order
	edits    map[string]RawMessage
	editors  map[string]int // target id → the context_edit entry whose replacement applies
	firstOld int            // Entries[1:firstOld] lie before the compaction (system messages are skipped there)
}

// entryNum is the type of an entry number in a path: int where callers read
// it, int32 where a selection keeps it.
type entryNum interface{ ~int | ~int32 }

// Select is SelectContextEntries on the index: it decodes only the latest
// compaction and the context edits.
func (ix *Index) Select(leaf int) (*Selection, error) { return ix.selectWith(leaf, nil) }

// selectWith is Select reading the compaction and the context edits through
// m (nil: decoding each).
func (ix *Index) selectWith(leaf int, m *selectMemo) (*Selection, error) {
	path, entries, firstOld, err := selectAt(ix, leaf, m)
	if err != nil {
		return nil, err
	}
	s := &Selection{Path: path, Entries: entries, firstOld: firstOld}
	return s, ix.collectEdits(s, m)
}

// count is how many entries the selection holds.
func (s *Selection) count() int { return len(s.Entries) }

// at is the k-th selected entry.
func (s *Selection) at(k int) int { return int(s.Entries[k]) }

// settings is Index.Settings over the selection's path.
func (ix *Index) settings(s *Selection) (RawMessage, *Model, error) {
	return pathSettings(ix, s.Path)
}

// selectAt makes the selection at leaf: its path, the selected entries (the
// path itself when it holds no compaction) and firstOld.
func selectAt(ix *Index, leaf int, m *selectMemo) (path, entries []int32, firstOld int, err error) {
	if path, err = pathTo[int32](ix, leaf); err != nil {
		return nil, nil, 0, err
	}
	c := -1
	for k, i := range path {
		if ix.Type(int(i)) == TypeCompaction {
			c = k
		}
	}
	if c < 0 {
		return path, path, 0, nil
	}
	firstKept, _, err := ix.refOf(m, int(path[c]))
	if err != nil {
		return nil, nil, 0, err
	}
	entries = append([]int32{path[c]}, keptFrom(ix, path[:c], firstKept)...)
	firstOld = len(entries)
	return path, append(entries, path[c+1:]...), firstOld, nil
}

// keptFrom is the part of before that a compaction with firstKeptEntryId
// firstKept keeps: from that entry on, nothing when before does not hold it.
func keptFrom(ix *Index, before []int32, firstKept string) []int32 {
	for k, i := range before {
		if ix.ids.is(i, viewBytes(firstKept)) {
			return before[k:]
		}
	}
	return nil
}

// selectCompacted is the selection at a compaction with firstKeptEntryId
// firstKept that is not written yet, appended after leaf: Entries[0] is None
// in place of the compaction.
func (ix *Index) selectCompacted(leaf int, firstKept string) (*Selection, error) {
	path, err := pathTo[int32](ix, leaf)
	if err != nil {
		return nil, err
	}
	return ix.compactedOn(path, firstKept)
}

// compactedOn is selectCompacted on the path to the leaf.
func (ix *Index) compactedOn(path []int32, firstKept string) (*Selection, error) {
	s := &Selection{Path: path, Entries: append([]int32{None}, keptFrom(ix, path, firstKept)...)}
	s.firstOld = len(s.Entries)
	return s, ix.collectEdits(s, nil)
}

func (ix *Index) collectEdits(s *Selection, m *selectMemo) error {
	s.edits, s.editors = map[string]RawMessage{}, map[string]int{}
	for k := range s.count() {
		i := s.at(k)
		if i == None || ix.Type(i) != TypeContextEdit {
			continue
		}
		target, replacement, err := ix.refOf(m, i)
		if err != nil {
			return err
		}
		s.edits[target] = replacement
		s.editors[target] = i
	}
	return nil
}

// Stream decodes the selected entries one at a time, projects each, and calls
// fn with it. Memory stays bounded by the largest entry, whatever the path's
// size. Older compactions inside the kept range contribute nothing, and system
// messages before the compaction are skipped, as in Pi.
func (ix *Index) Stream(s *Selection, fn func(ProjectedEntry) error) error {
	return ix.StreamAt(s, func(_ int, pe ProjectedEntry) error { return fn(pe) })
}

// StreamAt is Stream that also tells fn where each entry is in s.Entries, so
// that a caller keeping only a few facts of each can decode it again with
// ProjectAt.
func (ix *Index) StreamAt(s *Selection, fn func(k int, pe ProjectedEntry) error) error {
	return ix.streamAt(s, nil, fn)
}

// ProjectAt decodes and projects s.Entries[k] again, as Stream gave it.
func (ix *Index) ProjectAt(s *Selection, k int) (ProjectedEntry, error) {
	return ix.projectSelected(s, k, s.at(k))
}

// streamRaw is Stream for writers of JSON: when raw is not nil, a message that
// the projection passes through unchanged (no edit, content not null, written
// as Pi writes it) is handed to raw as its exact bytes, without decoding.
func (ix *Index) streamRaw(s *Selection, raw func(msg []byte, role string) error, fn func(ProjectedEntry) error) error {
	return ix.streamAt(s, raw, func(_ int, pe ProjectedEntry) error { return fn(pe) })
}

// streamAt is streamRaw telling fn each entry's position in s.Entries.
func (ix *Index) streamAt(s *Selection, raw func(msg []byte, role string) error, fn func(k int, pe ProjectedEntry) error) error {
	for k := range s.count() {
		i := s.at(k)
		if ix.skipsSystem(s, k, i) {
			continue
		}
		if raw != nil && ix.passesThrough(s, i) {
			msg, err := ix.rawMessage(i)
			if err == nil {
				err = raw(msg, ix.Role(i))
			}
			if err != nil {
				return err
			}
			continue
		}
		pe, err := ix.projectSelected(s, k, i)
		if err == nil {
			err = fn(k, pe)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// skipsSystem reports whether the k-th selected entry, i, is a system message
// kept from before the compaction, which Pi leaves out of the context.
func (ix *Index) skipsSystem(s *Selection, k, i int) bool {
	return k > 0 && k < s.firstOld && ix.nodes[i].role == SystemRole
}

func (ix *Index) projectSelected(s *Selection, k, i int) (ProjectedEntry, error) {
	e, err := ix.Decode(i)
	if err != nil {
		return ProjectedEntry{}, err
	}
	var msgs []Object
	if !(e.Type == TypeCompaction && k > 0) {
		msgs, err = projectWithReplacement(e, s.edits[e.ID], s.hasEdit(e.ID))
	}
	return ProjectedEntry{Entry: e, Messages: msgs}, err
}

// passesThrough reports whether entry i contributes its message unchanged.
func (ix *Index) passesThrough(s *Selection, i int) bool {
	n := &ix.nodes[i]
	return n.plain && n.role != HookMessageRole && n.role != NoRole && n.role != OtherRole && !ix.edited(s, i)
}

// editOf returns the replacement an edit of the selection gives entry i,
// without making its id.
func (ix *Index) editOf(s *Selection, i int) (rep RawMessage, edited bool) {
	if len(s.edits) == 0 {
		return nil, false
	}
	var buf [packedIDLen]byte
	rep, edited = s.edits[string(ix.ids.view(int32(i), &buf))]
	return rep, edited
}

// edited reports whether an edit of the selection applies to entry i.
func (ix *Index) edited(s *Selection, i int) bool {
	_, edited := ix.editOf(s, i)
	return edited
}

// rawMessage returns the bytes of a plain message entry's message object.
func (ix *Index) rawMessage(i int) ([]byte, error) {
	line, err := ix.rawLine(i)
	if err != nil {
		return nil, err
	}
	return line[ix.nodes[i].msgOff : len(line)-1], nil
}

// withMessage is rawMessage without a copy: fn gets the message object's
// bytes, valid only until it returns, and must not use ix.
func (ix *Index) withMessage(i int, fn func(msg []byte) error) error {
	return ix.withLine(i, func(line []byte, _ bool) error {
		return fn(line[ix.nodes[i].msgOff : len(line)-1])
	})
}

func (s *Selection) hasEdit(id string) bool {
	_, ok := s.edits[id]
	return ok
}

// Settings replays thinking-level and model changes over the whole path to a
// leaf. Only the last change of each kind matters, so the path is walked
// backwards and at most two entries are decoded.
func (ix *Index) Settings(path []int) (RawMessage, *Model, error) { return pathSettings(ix, path) }

// pathSettings is Index.Settings.
func pathSettings[T entryNum](ix *Index, path []T) (RawMessage, *Model, error) {
	level, err := lastThinkingLevel(ix, path)
	if err != nil {
		return nil, nil, err
	}
	model, err := lastModel(ix, path)
	return level, model, err
}

func lastThinkingLevel[T entryNum](ix *Index, path []T) (RawMessage, error) {
	for k := len(path) - 1; k >= 0; k-- {
		if i := int(path[k]); ix.Type(i) == TypeThinkingLevelChange {
			e, err := ix.Decode(i)
			if err != nil {
				return nil, err
			}
			return detach(e.Obj.Get("thinkingLevel")), nil
		}
	}
	return QuoteString("off"), nil
}

func lastModel[T entryNum](ix *Index, path []T) (*Model, error) {
	for k := len(path) - 1; k >= 0; k-- {
		i := int(path[k])
		isModelChange := ix.Type(i) == TypeModelChange
		if !isModelChange && ix.nodes[i].role != AssistantRole {
			continue
		}
		e, err := ix.Decode(i)
		if err != nil {
			return nil, err
		}
		if isModelChange {
			return &Model{Provider: detach(e.Obj.Get("provider")), ModelID: detach(e.Obj.Get("modelId"))}, nil
		}
		msg, err := e.Message()
		if err != nil {
			return nil, err
		}
		return &Model{Provider: detach(msg.Get("provider")), ModelID: detach(msg.Get("model"))}, nil
	}
	return nil, nil
}

// detach copies a raw value that outlives the entry it came from, so that the
// entry's read-ahead block can be freed.
func detach(raw RawMessage) RawMessage {
	if raw == nil {
		return nil
	}
	return append(RawMessage(nil), raw...)
}
