package redact

import "github.com/pitool/pitool/jsonl"

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

// value walks the value at pos and returns the position after it: it visits
// every string, and records the edits and findings.
func (w *walker) value(pos int, free bool) (int, error) {
	w.levels, w.objects = w.levels[:0], w.objects[:0]
	for {
		end, opened, err := w.start(pos, free)
		if err != nil {
			return end, err
		}
		if !opened {
			if pos, free, err = w.next(end); err != nil || len(w.levels) == 0 {
				return pos, err
			}
			continue
		}
		pos, free = end, w.levels[len(w.levels)-1].free
		if w.levels[len(w.levels)-1].obj {
			if pos, free, err = w.member(pos); err != nil {
				return pos, err
			}
		}
	}
}

// start walks the value at pos when it is a string, a scalar or an empty
// container, and returns where it ends. It opens any other container and
// returns where its first element or key starts, with opened set.
func (w *walker) start(pos int, free bool) (end int, opened bool, err error) {
	pos = skipSpace(w.line, pos)
	if pos >= len(w.line) {
		return pos, false, w.syntaxError(pos)
	}
	switch c := w.line[pos]; c {
	case '{', '[':
		inner := skipSpace(w.line, pos+1)
		if inner < len(w.line) && w.line[inner] == c+2 { // '}' or ']'
			return inner + 1, false, nil
		}
		w.levels = append(w.levels, level{obj: c == '{', free: free})
		if c == '{' {
			w.objects = append(w.objects, object{m: members{pendingStart: -1}, firstKey: len(w.keys)})
		} else {
			w.path = append(w.path, seg{idx: 0})
			inner = pos + 1
		}
		return inner, true, nil
	case '"':
		end, err := w.stringEnd(pos)
		if err == nil {
			w.visitString(pos, end, false)
		}
		return end, false, err
	}
	end, err = w.scalar(pos)
	return end, false, err
}

// next follows a value that ended at end: it finishes the member or element
// it was, closes the containers that end there, and returns where the next
// value starts and whether it is free-form. With no container left open, it
// returns end itself.
func (w *walker) next(end int) (int, bool, error) {
	for len(w.levels) > 0 {
		lv := w.levels[len(w.levels)-1]
		pos := skipSpace(w.line, end)
		closer := byte(']')
		if lv.obj {
			closer = '}'
			w.memberDone(&w.objects[len(w.objects)-1], end)
		}
		if pos >= len(w.line) || (w.line[pos] != ',' && w.line[pos] != closer) {
			return pos, false, w.syntaxError(pos)
		}
		if w.line[pos] == closer {
			w.close(lv)
			end = pos + 1
			continue
		}
		if !lv.obj {
			w.path[len(w.path)-1].idx++
			return pos + 1, lv.free, nil
		}
		return w.member(skipSpace(w.line, pos+1))
	}
	return end, false, nil
}

// close ends the innermost container, after its closing byte.
func (w *walker) close(lv level) {
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

// member reads the key of a member of the innermost object, at pos, and
// returns where its value starts and whether that value is free-form. It
// notes in the object what ends with the value.
func (w *walker) member(pos int) (int, bool, error) {
	if pos >= len(w.line) || w.line[pos] != '"' {
		return pos, false, w.syntaxError(pos)
	}
	keyEnd, err := w.stringEnd(pos)
	if err != nil {
		return keyEnd, false, err
	}
	colon := skipSpace(w.line, keyEnd)
	if colon >= len(w.line) || w.line[colon] != ':' {
		return colon, false, w.syntaxError(colon)
	}
	o, free := &w.objects[len(w.objects)-1], w.levels[len(w.levels)-1].free
	key := w.line[pos+1 : keyEnd-1]
	o.keyPos, o.valPos = pos, skipSpace(w.line, colon+1)
	if w.r.opts.DropSignatures && opaque(key) && !free {
		o.end = endDrop
		w.muted++
		return o.valPos, false, nil
	}
	w.keep(pos, &o.m)
	w.path = append(w.path, seg{a: int32(pos), b: int32(keyEnd)})
	w.visitKey(pos, keyEnd)
	o.end = endKept
	switch {
	case free:
		return o.valPos, true, nil
	case string(key) == "type":
		o.end = endType
	case string(key) == "mimeType" && o.m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		o.end, o.repl = endReplace, []byte(`"image/png"`)
	case string(key) == "data" && o.m.objType == jsonl.BlockImage && w.r.opts.DropImages:
		o.end, o.repl = endReplace, []byte(`"`+placeholderPNG+`"`)
	default:
		return o.valPos, freeForm(key), nil
	}
	if o.end == endReplace {
		w.muted++
	}
	return o.valPos, false, nil
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
	case endType: // the object's type as written, and the entry's at the top
		if w.line[o.valPos] == '"' {
			o.m.objType = string(w.line[o.valPos+1 : end-1])
			if len(w.path) == 1 {
				w.entryType = o.m.objType
			}
		}
	case endReplace:
		w.muted--
		w.edits = append(w.edits, edit{o.valPos, end, o.repl})
	}
	w.path = w.path[:len(w.path)-1]
	o.m.keptEnd = end
}
