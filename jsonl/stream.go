package jsonl

import (
	json "github.com/goccy/go-json"
)

// Selection is the compaction-aware choice of context entries at a leaf, made
// from the index alone: entries are numbers, decoded later one at a time.
type Selection struct {
	Path     []int // root to leaf
	Entries  []int // the selected entries, in context order
	edits    map[string]RawMessage
	firstOld int // entries[1:firstOld] lie before the compaction (system messages are skipped there)
}

// Select is SelectContextEntries on the index: it decodes only the latest
// compaction and the context edits.
func (ix *Index) Select(leaf int) (*Selection, error) {
	path, err := ix.Path(leaf)
	if err != nil {
		return nil, err
	}
	s := &Selection{Path: path, Entries: path}
	if err := ix.selectAfterCompaction(s); err != nil {
		return nil, err
	}
	return s, ix.collectEdits(s)
}

func (ix *Index) selectAfterCompaction(s *Selection) error {
	c := -1
	for k, i := range s.Path {
		if ix.Type(i) == TypeCompaction {
			c = k
		}
	}
	if c < 0 {
		return nil
	}
	comp, err := ix.Decode(s.Path[c])
	if err != nil {
		return err
	}
	firstKept := comp.Obj.String("firstKeptEntryId")
	s.Entries = []int{s.Path[c]}
	for k, i := range s.Path[:c] {
		if ix.ID(i) == firstKept {
			s.Entries = append(s.Entries, s.Path[k:c]...)
			break
		}
	}
	s.firstOld = len(s.Entries)
	s.Entries = append(s.Entries, s.Path[c+1:]...)
	return nil
}

func (ix *Index) collectEdits(s *Selection) error {
	s.edits = map[string]RawMessage{}
	for _, i := range s.Entries {
		if ix.Type(i) != TypeContextEdit {
			continue
		}
		e, err := ix.Decode(i)
		if err != nil {
			return err
		}
		s.edits[e.Obj.String("targetId")] = e.Obj.Get("replacement")
	}
	return nil
}

// Stream decodes the selected entries one at a time, projects each, and calls
// fn with it. Memory stays bounded by the largest entry, whatever the path's
// size. Older compactions inside the kept range contribute nothing, and system
// messages before the compaction are skipped, as in Pi.
func (ix *Index) Stream(s *Selection, fn func(ProjectedEntry) error) error {
	for k, i := range s.Entries {
		e, err := ix.Decode(i)
		if err != nil {
			return err
		}
		if k > 0 && k < s.firstOld && isSystemMessageEntry(e) {
			continue
		}
		var msgs []Object
		if !(e.Type == TypeCompaction && k > 0) {
			if msgs, err = projectWithReplacement(e, s.edits[e.ID], s.hasEdit(e.ID)); err != nil {
				return err
			}
		}
		if err := fn(ProjectedEntry{Entry: e, Messages: msgs}); err != nil {
			return err
		}
	}
	return nil
}

func (s *Selection) hasEdit(id string) bool {
	_, ok := s.edits[id]
	return ok
}

// settingsSkim is what the settings pass reads of a message entry.
type settingsSkim struct {
	Message struct {
		Role     string     `json:"role"`
		Provider RawMessage `json:"provider"`
		Model    RawMessage `json:"model"`
	} `json:"message"`
}

// Settings replays thinking-level and model changes over the whole path to a
// leaf, reading only the fields it needs.
func (ix *Index) Settings(path []int) (RawMessage, *Model, error) {
	level := QuoteString("off")
	var model *Model
	for _, i := range path {
		switch ix.Type(i) {
		case TypeThinkingLevelChange:
			e, err := ix.Decode(i)
			if err != nil {
				return nil, nil, err
			}
			level = e.Obj.Get("thinkingLevel")
		case TypeModelChange:
			e, err := ix.Decode(i)
			if err != nil {
				return nil, nil, err
			}
			model = &Model{Provider: e.Obj.Get("provider"), ModelID: e.Obj.Get("modelId")}
		case TypeMessage:
			m, err := ix.assistantModel(i)
			if err != nil {
				return nil, nil, err
			}
			if m != nil {
				model = m
			}
		}
	}
	return level, model, nil
}

func (ix *Index) assistantModel(i int) (*Model, error) {
	raw, err := ix.rawLine(i)
	if err != nil {
		return nil, err
	}
	var sk settingsSkim
	if err := json.Unmarshal(raw, &sk); err != nil || sk.Message.Role != RoleAssistant {
		return nil, nil
	}
	return &Model{Provider: nilIfEmpty(sk.Message.Provider), ModelID: nilIfEmpty(sk.Message.Model)}, nil
}

func nilIfEmpty(raw RawMessage) RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return append(RawMessage(nil), raw...)
}
