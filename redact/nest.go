package redact

import (
	"bytes"

	"github.com/pitool/pitool/jsonl"
)

// The walk keeps its open arrays and objects on explicit stacks rather than
// recursing, so that a line nested a million deep, which JSON.parse and so Pi
// read, costs memory in proportion to the line and never a stack overflow.

// level is one open array or object: whether it is an object (its state is
// the last of walker.objects) and whether its strings are free-form.
type level struct{ obj, free bool }

// memberEnd says what ends when the value of an object's member does.
type memberEnd uint8

const (
	endKept    memberEnd = iota // a kept member: its step of the path goes
	endType                     // "type": the value names the object's type
	endReplace                  // a value replaced whole (--drop-images)
	endDrop                     // a dropped member (--drop-signatures)
)

// object is the walk state of an open object.
type object struct {
	m        members
	firstKey int       // where its keys start in walker.keys
	end      memberEnd // for the member being walked
	keyPos   int       // where that member's key starts
	valPos   int       // where its value starts
	repl     []byte    // what replaces the value, for endReplace
}

// value walks the line's value with jsonl's walker: it visits every string,
// and records the edits and findings. It returns where the value and the
// white space after it end.
func (w *walker) value() (int, error) {
	t := &w.tokens
	t.Reset(w.line, 0)
	free := false // whether the next value is free-form
	for {
		tok, err := t.Next()
		if err != nil {
			return t.End, err
		}
		switch tok {
		case jsonl.TokenEnd:
			return t.End, nil
		case jsonl.TokenKey:
			free = w.member(t.Start, t.End)
			continue
		case jsonl.TokenObject, jsonl.TokenArray:
			w.valueStarts(t.Start)
			w.open(tok == jsonl.TokenObject, free)
		case jsonl.TokenString:
			w.valueStarts(t.Start)
			w.visitString(t.Start, t.End, false)
			w.valueEnds(t.End)
		case jsonl.TokenScalar:
			w.valueStarts(t.Start)
			w.valueEnds(t.End)
		case jsonl.TokenClose:
			w.close()
			w.valueEnds(t.End)
		}
		free = len(w.levels) > 0 && w.levels[len(w.levels)-1].free
	}
}

// open starts an object or an array, whose strings are free-form or not.
func (w *walker) open(obj, free bool) {
	w.levels = append(w.levels, level{obj: obj, free: free})
	if obj {
		w.objects = append(w.objects, object{m: members{pendingStart: -1}, firstKey: len(w.keys)})
	} else {
		w.path = append(w.path, seg{idx: 0})
	}
}

// valueStarts notes where a value starts, for the member it is the value of.
func (w *walker) valueStarts(pos int) {
	if n := len(w.levels); n > 0 && w.levels[n-1].obj {
		w.objects[len(w.objects)-1].valPos = pos
	}
}

// valueEnds finishes the member or element whose value ended at end.
func (w *walker) valueEnds(end int) {
	switch n := len(w.levels); {
	case n == 0:
	case w.levels[n-1].obj:
		w.memberDone(&w.objects[len(w.objects)-1], end)
	default:
		w.path[len(w.path)-1].idx++
	}
}

// close ends the innermost container, after its closing byte.
func (w *walker) close() {
	lv := w.levels[len(w.levels)-1]
	w.levels = w.levels[:len(w.levels)-1]
	if !lv.obj {
		w.path = w.path[:len(w.path)-1]
		return
	}
	o := &w.objects[len(w.objects)-1]
	if o.m.pendingStart >= 0 {
		w.edits = append(w.edits, edit{o.m.pendingStart, o.m.pendingEnd, nil})
	}
	w.uniqueKeys(w.keys[o.firstKey:])
	w.keys = w.keys[:o.firstKey]
	w.objects = w.objects[:len(w.objects)-1]
}

// member reads the key literal line[a:b] of a member of the innermost
// object, and returns whether the member's value is free-form. It notes in
// the object what ends with the value.
func (w *walker) member(a, b int) bool {
	o, free := &w.objects[len(w.objects)-1], w.levels[len(w.levels)-1].free
	key := w.keyText(a, b)
	o.keyPos = a
	if w.r.opts.DropSignatures && opaque(key) && !free {
		o.end = endDrop
		w.muted++
		return false
	}
	w.keep(a, &o.m)
	w.path = append(w.path, seg{a: int32(a), b: int32(b)})
	w.visitKey(a, b)
	o.end = endKept
	switch {
	case free:
		return true
	case string(key) == "type":
		o.end = endType
	case string(key) == "mimeType" && o.m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		o.end, o.repl = endReplace, []byte(`"image/png"`)
	case string(key) == "data" && o.m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		o.end, o.repl = endReplace, []byte(`"`+placeholderPNG+`"`)
	default:
		return freeForm(key)
	}
	if o.end == endReplace {
		w.muted++
	}
	return false
}

// keyText returns the text of the key literal line[a:b] as JSON.parse reads
// it, decoded into the scanner's buffer only when it has an escape.
func (w *walker) keyText(a, b int) []byte {
	if raw := w.line[a+1 : b-1]; bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	w.sc.key, _ = jsonl.AppendDecodedString(w.sc.key[:0], w.line[a:b])
	return w.sc.key
}

// memberDone finishes the member of o whose value ended at end. Every
// string is scanned, ids and references included: a secret gets the same
// placeholder wherever it appears, so a parentId still names its parent's
// new id.
func (w *walker) memberDone(o *object, end int) {
	switch o.end {
	case endDrop: // with the comma that separates it from a kept neighbour
		w.muted--
		if o.m.kept > 0 {
			w.edits = append(w.edits, edit{o.m.keptEnd, end, nil})
			return
		}
		if o.m.pendingStart < 0 {
			o.m.pendingStart = o.keyPos
		}
		o.m.pendingEnd = end
		return
	case endType: // the object's type, and the entry's at the top
		o.m.objType = jsonl.BlockType(w.line[o.valPos:end])
		if len(w.path) == 1 {
			w.entryType = w.line[o.valPos:end]
		}
	case endReplace:
		w.muted--
		w.edits = append(w.edits, edit{o.valPos, end, o.repl})
	}
	w.path = w.path[:len(w.path)-1]
	o.m.keptEnd = end
}
