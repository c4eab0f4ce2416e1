package redact

import (
	"strconv"

	"github.com/pitool/pitool/jsonl"
)

// placeholderPNG is a 1×1 transparent PNG that --drop-images puts in place
// of image data, so the entry stays a valid image block.
const placeholderPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

// members is the walk state of one JSON object: how many members were kept,
// and a pending removal of leading members (--drop-signatures).
type members struct {
	kept         int
	keptEnd      int // end of the last kept member's value
	pendingStart int // start of dropped leading members, -1 if none
	pendingEnd   int
	objType      string // the value of "type" seen so far
}

func (w *walker) object(pos int, free bool) (int, error) {
	pos = skipSpace(w.line, pos+1)
	if pos < len(w.line) && w.line[pos] == '}' {
		return pos + 1, nil
	}
	m := members{pendingStart: -1}
	firstKey := len(w.keys)
	defer func() { w.keys = w.keys[:firstKey] }()
	for {
		end, err := w.member(pos, free, &m)
		if err != nil {
			return end, err
		}
		pos = skipSpace(w.line, end)
		if pos >= len(w.line) || (w.line[pos] != ',' && w.line[pos] != '}') {
			return pos, w.syntaxError(pos)
		}
		if w.line[pos] == '}' {
			if m.pendingStart >= 0 {
				w.edits = append(w.edits, edit{m.pendingStart, m.pendingEnd, nil})
			}
			w.uniqueKeys(w.keys[firstKey:])
			return pos + 1, nil
		}
		pos = skipSpace(w.line, pos+1)
	}
}

// member walks one "key":value pair starting at pos.
func (w *walker) member(pos int, free bool, m *members) (int, error) {
	if pos >= len(w.line) || w.line[pos] != '"' {
		return pos, w.syntaxError(pos)
	}
	keyEnd, err := w.stringEnd(pos)
	if err != nil {
		return keyEnd, err
	}
	colon := skipSpace(w.line, keyEnd)
	if colon >= len(w.line) || w.line[colon] != ':' {
		return colon, w.syntaxError(colon)
	}
	key := w.line[pos+1 : keyEnd-1]
	if w.r.opts.DropSignatures && opaque(key) && !free {
		return w.dropMember(pos, colon+1, m)
	}
	w.keep(pos, m)
	w.path = append(w.path, seg{a: pos, b: keyEnd, key: true})
	w.visitKey(pos, keyEnd)
	end, err := w.memberValue(key, skipSpace(w.line, colon+1), free, m)
	w.path = w.path[:len(w.path)-1]
	m.keptEnd = end
	return end, err
}

// memberValue walks a member's value. Every string is scanned, ids and
// references included: a secret gets the same placeholder wherever it
// appears, so a parentId still names its parent's new id.
func (w *walker) memberValue(key []byte, pos int, free bool, m *members) (int, error) {
	switch {
	case free:
		return w.value(pos, true)
	case string(key) == "type":
		return w.typeValue(pos, m)
	case string(key) == "mimeType" && m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		return w.replaceValue(pos, []byte(`"image/png"`))
	case string(key) == "data" && m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		return w.replaceValue(pos, []byte(`"`+placeholderPNG+`"`))
	}
	return w.value(pos, freeForm(key))
}

// typeValue walks the value of a "type" member and notes it (as written)
// as the object's type, and the entry's at the top level.
func (w *walker) typeValue(pos int, m *members) (int, error) {
	end, err := w.value(pos, false)
	if err == nil && w.line[pos] == '"' {
		m.objType = string(w.line[pos+1 : end-1])
		if len(w.path) == 1 {
			w.entryType = m.objType
		}
	}
	return end, err
}

// visitKey scans the key literal line[a:b], the last step of the path.
func (w *walker) visitKey(a, b int) {
	k := memberKey{a: a, b: b, edit: -1}
	n := len(w.edits)
	if out, changed := w.visitString(a, b, true); changed {
		k.edit, k.final = n, out
	}
	w.keys = append(w.keys, k)
}

// uniqueKeys keeps an object's keys as distinct as they were: a redacted
// key equal to another key of the object gets a "#2", "#3"… suffix, since
// JSON.parse would keep only the last of two equal keys. Keys that were
// equal before stay equal.
func (w *walker) uniqueKeys(keys []memberKey) {
	var owner map[string]string // final key → the original it came from
	for _, k := range keys {
		if k.edit < 0 {
			continue
		}
		if owner == nil {
			owner = w.keptKeys(keys)
		}
		orig := decodeString(w.line[k.a+1 : k.b-1])
		name := k.final
		for i := 2; owner[name] != "" && owner[name] != orig; i++ {
			name = k.final + "#" + strconv.Itoa(i)
		}
		owner[name] = orig
		if name != k.final {
			w.edits[k.edit].repl = jsonl.AppendString(nil, name)
		}
	}
}

// keptKeys maps each unchanged key among keys to itself, decoded.
func (w *walker) keptKeys(keys []memberKey) map[string]string {
	owner := map[string]string{}
	for _, k := range keys {
		if k.edit < 0 {
			name := decodeString(w.line[k.a+1 : k.b-1])
			owner[name] = name
		}
	}
	return owner
}

// skipValue walks a value without scanning anything in it.
func (w *walker) skipValue(pos int) (int, error) {
	w.muted++
	end, err := w.value(pos, false)
	w.muted--
	return end, err
}

func (w *walker) replaceValue(pos int, repl []byte) (int, error) {
	end, err := w.skipValue(pos)
	if err == nil {
		w.edits = append(w.edits, edit{pos, end, repl})
	}
	return end, err
}

// dropMember removes the member whose key starts at keyPos, with the comma
// that separates it from a kept neighbour.
func (w *walker) dropMember(keyPos, valuePos int, m *members) (int, error) {
	end, err := w.skipValue(valuePos)
	if err != nil {
		return end, err
	}
	if m.kept > 0 {
		w.edits = append(w.edits, edit{m.keptEnd, end, nil})
		return end, nil
	}
	if m.pendingStart < 0 {
		m.pendingStart = keyPos
	}
	m.pendingEnd = end
	return end, nil
}

// keep notes a kept member at keyPos, removing dropped members before it.
func (w *walker) keep(keyPos int, m *members) {
	if m.pendingStart >= 0 {
		w.edits = append(w.edits, edit{m.pendingStart, keyPos, nil})
		m.pendingStart = -1
	}
	m.kept++
}
