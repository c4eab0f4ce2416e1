package jsonl

import (
	"bytes"
	"sort"
	"sync"
)

// An object may hold a key more than once. JSON.parse keeps one member per
// key, at the position of the key's first occurrence, with the value of its
// last, and JSON.stringify writes that. This file gives pitool's objects and
// the JSON it prints the same reading; everything else keeps its bytes.

// smallObject is the member count up to which repeats are found by comparing
// every pair; larger objects use a map.
const smallObject = 16

// mergeRepeats gives o JSON.parse's members when a key repeats: the first
// position, the last value. An object that changes is no longer written back
// as it was read.
func (o *Object) mergeRepeats() {
	if !repeatsKey(o.Keys) {
		return
	}
	at := make(map[string]int, len(o.Keys))
	keys, vals := o.Keys[:0:0], o.Vals[:0:0]
	for i, k := range o.Keys {
		if j, seen := at[k]; seen {
			vals[j] = o.Vals[i]
			continue
		}
		at[k] = len(keys)
		keys, vals = append(keys, k), append(vals, o.Vals[i])
	}
	o.Keys, o.Vals, o.raw = keys, vals, nil
}

// repeatsKey reports whether two of keys are equal: by pairs for small
// objects, through a map for large ones.
func repeatsKey(keys []string) bool {
	if len(keys) > smallObject {
		seen := make(map[string]bool, len(keys))
		for _, k := range keys {
			if seen[k] {
				return true
			}
			seen[k] = true
		}
		return false
	}
	for i := 1; i < len(keys); i++ {
		for _, k := range keys[:i] {
			if k == keys[i] {
				return true
			}
		}
	}
	return false
}

// MergeRepeatedKeys returns raw as JSON.parse reads it where an object, at any
// depth, repeats a key: that object is written with one member per key, at
// the first position, with the last value, and its keys in JSON.stringify's
// spelling. Everything else is copied as it is, so raw itself comes back,
// without a copy, when no key repeats or raw is not well-formed JSON. Neither
// the walk nor the rewrite recurses, so any depth is read, and raw is read
// once when nothing repeats.
func MergeRepeatedKeys(raw []byte) []byte {
	objs := findRepeats(raw)
	if len(objs) == 0 {
		return raw
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].start < objs[j].start })
	return writeMerged(make([]byte, 0, len(raw)), raw, objs)
}

// member is one member of an object being walked: its raw key (quotes
// included) and its value's span; start and end are -1 until read.
type member struct {
	key        []byte
	plain      bool // the key has no escape and is valid UTF-8: its bytes are its name
	start, end int
}

// mergedObject is an object that repeats a key: its span, and the members
// JSON.parse keeps, in order, with their keys decoded.
type mergedObject struct {
	start, end int
	keys       []string
	vals       [][2]int // value spans
}

// repeatWalk is the state of findRepeats: the Walker reading the value, the
// containers open (one byte each, '{' or '['), the objects open (where each
// starts and its first member in members), and the members of those objects.
type repeatWalk struct {
	walker  Walker
	open    []byte
	objects [][2]int
	members []member
	found   []mergedObject
}

// walks keeps the stacks of finished walks for the next ones: a context
// walks every message it prints.
var walks = sync.Pool{New: func() any { return new(repeatWalk) }}

// maxPooledDepth is the nesting depth past which a walk's stacks are left to
// the garbage collector rather than kept.
const maxPooledDepth = 1 << 12

// release empties the walk, forgetting the text it read, and pools it.
func (w *repeatWalk) release() {
	clear(w.members[:cap(w.members)])
	w.walker.Reset(nil, 0)
	w.open, w.objects, w.members, w.found = w.open[:0], w.objects[:0], w.members[:0], nil
	if cap(w.open) <= maxPooledDepth {
		walks.Put(w)
	}
}

// findRepeats walks raw with a Walker and returns the objects that repeat a
// key, nil when none does or raw is not one JSON value.
func findRepeats(raw []byte) []mergedObject {
	w := walks.Get().(*repeatWalk)
	defer w.release()
	w.walker.Reset(raw, 0)
	for {
		tok, err := w.walker.Next()
		if err != nil {
			return nil
		}
		if tok == TokenEnd {
			if w.walker.End != len(raw) {
				return nil
			}
			return w.found
		}
		w.step(tok, raw[w.walker.Start:w.walker.End])
	}
}

// step takes one token of the walk, whose bytes are tok.
func (w *repeatWalk) step(tok Token, text []byte) {
	start, end := w.walker.Start, w.walker.End
	switch tok {
	case TokenKey:
		w.members = append(w.members, member{key: text, plain: !hasEscapeOrInvalid(text), start: -1, end: -1})
	case TokenString, TokenScalar:
		w.valueStarts(start)
		w.valueEnds(end)
	case TokenObject, TokenArray:
		w.valueStarts(start)
		w.open = append(w.open, text[0])
		if tok == TokenObject {
			w.objects = append(w.objects, [2]int{start, len(w.members)})
		}
	case TokenClose:
		w.close(end)
	}
}

// inObject reports whether the innermost open container is an object.
func (w *repeatWalk) inObject() bool { return len(w.open) > 0 && w.open[len(w.open)-1] == '{' }

func (w *repeatWalk) valueStarts(i int) {
	if w.inObject() && len(w.members) > 0 {
		if m := &w.members[len(w.members)-1]; m.start < 0 {
			m.start = i
		}
	}
}

func (w *repeatWalk) valueEnds(end int) {
	if w.inObject() && len(w.members) > 0 {
		if m := &w.members[len(w.members)-1]; m.start >= 0 && m.end < 0 {
			m.end = end
		}
	}
}

// close ends the innermost container, whose closer ends at end (the Walker
// has checked that it matches).
func (w *repeatWalk) close(end int) {
	if w.inObject() {
		o := w.objects[len(w.objects)-1]
		w.objects = w.objects[:len(w.objects)-1]
		if ms := w.members[o[1]:]; hasRepeatedKey(ms) {
			w.found = append(w.found, merge(o[0], end, ms))
		}
		w.members = w.members[:o[1]]
	}
	w.open = w.open[:len(w.open)-1]
	w.valueEnds(end)
}

// hasRepeatedKey reports whether two members have keys JSON.parse reads as
// one: by pairs for small objects, through a map of decoded keys for large ones.
func hasRepeatedKey(ms []member) bool {
	if len(ms) > smallObject {
		seen := make(map[string]bool, len(ms))
		for _, m := range ms {
			k := decodedKey(m.key)
			if seen[k] {
				return true
			}
			seen[k] = true
		}
		return false
	}
	for i := 1; i < len(ms); i++ {
		for j := range ms[:i] {
			if sameKey(&ms[i], &ms[j]) {
				return true
			}
		}
	}
	return false
}

// sameKey compares keys as decoded strings, decoding only when an escape or
// invalid UTF-8 makes the bytes differ from the name.
func sameKey(a, b *member) bool {
	if a.plain && b.plain {
		return bytes.Equal(a.key, b.key)
	}
	return decodedKey(a.key) == decodedKey(b.key)
}

func decodedKey(raw []byte) string {
	s, _ := DecodeString(raw)
	return s
}

// merge lists the members JSON.parse keeps of the object raw[start:end].
func merge(start, end int, ms []member) mergedObject {
	o := mergedObject{start: start, end: end}
	at := make(map[string]int, len(ms))
	for _, m := range ms {
		k := decodedKey(m.key)
		if j, seen := at[k]; seen {
			o.vals[j] = [2]int{m.start, m.end}
			continue
		}
		at[k] = len(o.keys)
		o.keys, o.vals = append(o.keys, k), append(o.vals, [2]int{m.start, m.end})
	}
	return o
}

// writeTask is one piece of writeMerged's output: a literal, or a span of raw
// in which merged objects are replaced.
type writeTask struct {
	lit        string
	start, end int
}

// writeMerged appends raw with each of objs (sorted by start) written as
// merged, using a stack of tasks instead of recursion.
func writeMerged(dst, raw []byte, objs []mergedObject) []byte {
	tasks := []writeTask{{start: 0, end: len(raw)}}
	for len(tasks) > 0 {
		t := tasks[len(tasks)-1]
		tasks = tasks[:len(tasks)-1]
		if t.lit != "" {
			dst = append(dst, t.lit...)
			continue
		}
		k := sort.Search(len(objs), func(k int) bool { return objs[k].start >= t.start })
		if k == len(objs) || objs[k].start >= t.end {
			dst = append(dst, raw[t.start:t.end]...)
			continue
		}
		o := &objs[k]
		dst = append(dst, raw[t.start:o.start]...)
		tasks = append(tasks, writeTask{start: o.end, end: t.end}, writeTask{lit: "}"})
		for j := len(o.keys) - 1; j >= 0; j-- {
			key := string(AppendString(nil, o.keys[j])) + ":"
			if j > 0 {
				key = "," + key
			}
			tasks = append(tasks, writeTask{start: o.vals[j][0], end: o.vals[j][1]}, writeTask{lit: key})
		}
		tasks = append(tasks, writeTask{lit: "{"})
	}
	return dst
}
