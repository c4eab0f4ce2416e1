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
		orig, _ := jsonl.DecodeString(w.line[k.a:k.b])
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
			name, _ := jsonl.DecodeString(w.line[k.a:k.b])
			owner[name] = name
		}
	}
	return owner
}

// keep notes a kept member at keyPos, removing dropped members before it.
func (w *walker) keep(keyPos int, m *members) {
	if m.pendingStart >= 0 {
		w.edits = append(w.edits, edit{m.pendingStart, keyPos, nil})
		m.pendingStart = -1
	}
	m.kept++
}
