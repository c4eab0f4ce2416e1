package repair

import (
	"bytes"
	"unicode/utf8"

	"github.com/pitool/pitool/jsonl"
)

// maxSalvageTries bounds the restarts when a damaged line is searched for
// whole entries, so a pathological line stays linear in practice.
const maxSalvageTries = 1024

// segment is one whole JSON object found on a line, with the raw values of
// the keys validate reads.
type segment struct {
	start, end int
	f          jsonl.Fields
}

// piece is a byte range of a line that is not part of any object.
type piece struct {
	start, end int
	truncated  bool // a prefix of an object that ends early: a torn write
}

// analysis is what one physical line holds: its normalised text, the objects
// on it and the pieces between them.
type analysis struct {
	raw       []byte // the line as read
	text      []byte // the line without NULs, invalid UTF-8 replaced by U+FFFD
	nuls      int    // NUL bytes removed
	badUTF8   bool   // invalid UTF-8 was replaced
	blank     bool   // nothing but white space
	notObject bool   // valid JSON, but not an object
	// readAt, when not -1, is where the Reader analyse was given read the
	// line's one object, which only white space surrounds: the Reader
	// holds that read until its next one (jsonl.LoadIndexer.LineRead).
	readAt int
	segs   []segment
	junk   []piece
	strip  []byte // buffer for the NUL-free copy
}

// clean reports whether the line is one object that needed no normalising.
func (a *analysis) clean() bool {
	return a.nuls == 0 && !a.badUTF8 && len(a.segs) == 1 && len(a.junk) == 0 && !a.notObject
}

// parsed reports whether JSON.parse accepts the line as Pi reads it, with
// invalid UTF-8 as U+FFFD: it holds one JSON value (an object or not), and no
// NUL.
func (a *analysis) parsed() bool {
	return a.nuls == 0 && (len(a.segs) == 1 && len(a.junk) == 0 || a.notObject)
}

// analyse splits one line (without its newline, CR or BOM) into objects and
// junk. The common case, one valid object in valid UTF-8, costs one strict
// parse.
func analyse(r *jsonl.Reader, raw []byte, a *analysis) {
	a.raw, a.text, a.nuls, a.badUTF8, a.blank, a.notObject = raw, raw, 0, false, false, false
	a.segs, a.junk, a.readAt = a.segs[:0], a.junk[:0], -1
	i := jsonl.SkipSpace(raw, 0)
	if i < len(raw) && raw[i] == '{' { // a NUL anywhere makes this parse fail
		a.segs = append(a.segs, segment{start: 0, end: len(raw)})
		if res := r.Read(raw, i, &a.segs[0].f); res.OK() && !res.BadUTF8 && jsonl.SkipSpace(raw, res.End) == len(raw) {
			a.readAt = i
			return
		}
		a.segs = a.segs[:0]
	}
	a.normalise(raw)
	a.split(r)
}

// rawOffset maps an offset in the normalised text back to the line as read,
// so that findings point at the bytes in the file.
func (a *analysis) rawOffset(pos int) int {
	if a.badUTF8 {
		stripped := a.raw
		if a.nuls > 0 {
			stripped = a.strip
		}
		pos = jsonl.RawOffset(stripped, pos)
	}
	if a.nuls == 0 {
		return pos
	}
	kept := 0
	for i, c := range a.raw {
		if c != 0 {
			if kept == pos {
				return i
			}
			kept++
		}
	}
	return len(a.raw)
}

// normalise removes NULs and replaces invalid UTF-8, as repair writes the line.
func (a *analysis) normalise(raw []byte) {
	if bytes.IndexByte(raw, 0) >= 0 {
		a.strip = stripNUL(a.strip[:0], raw)
		a.text, a.nuls = a.strip, len(raw)-len(a.strip)
	}
	if !utf8.Valid(a.text) {
		a.text, a.badUTF8 = jsonl.ToValidUTF8(a.text), true
	}
}

// split finds the objects of a line that is not one clean object.
func (a *analysis) split(r *jsonl.Reader) {
	i := jsonl.SkipSpace(a.text, 0)
	if i == len(a.text) {
		a.blank = true
		return
	}
	seg := segment{start: 0, end: len(a.text)}
	if res := r.Read(a.text, i, &seg.f); res.OK() && jsonl.SkipSpace(a.text, res.End) == len(a.text) {
		if a.text[i] != '{' {
			a.notObject = true
			a.junk = append(a.junk, piece{start: 0, end: len(a.text)})
			return
		}
		a.segs = append(a.segs, seg)
		return
	}
	a.salvage(r)
}

func stripNUL(dst, src []byte) []byte {
	for _, c := range src {
		if c != 0 {
			dst = append(dst, c)
		}
	}
	return dst
}

// salvage finds the whole objects on a damaged line: objects one after the
// other (joined lines), and entries that start after junk (a torn write
// followed by a complete one). Everything else becomes junk.
func (a *analysis) salvage(r *jsonl.Reader) {
	pos := jsonl.SkipSpace(a.text, 0)
	tries := 0
	for pos < len(a.text) {
		if seg, ok := a.tryObject(r, pos, false); ok {
			a.segs = append(a.segs, seg)
			pos = jsonl.SkipSpace(a.text, seg.end)
			continue
		}
		next, seg, found := a.nextEntry(r, pos+1, &tries)
		a.addJunk(r, pos, next)
		if !found {
			return
		}
		a.segs = append(a.segs, seg)
		pos = jsonl.SkipSpace(a.text, seg.end)
	}
}

// entryStart is how every line Pi writes begins.
var entryStart = []byte(`{"type":"`)

// nextEntry searches from i for an object that looks like a session entry:
// it starts as Pi writes entries, with a known type, and parses.
func (a *analysis) nextEntry(r *jsonl.Reader, i int, tries *int) (int, segment, bool) {
	for *tries < maxSalvageTries {
		k := bytes.Index(a.text[i:], entryStart)
		if k < 0 {
			break
		}
		i += k
		if knownTypeAt(a.text[i+len(entryStart)-1:]) {
			*tries++
			if seg, ok := a.tryObject(r, i, true); ok {
				return i, seg, true
			}
		}
		i++
	}
	return len(a.text), segment{}, false
}

// knownTypeAt reports whether b starts with the string literal of a session
// line type, checked before any costly parse.
func knownTypeAt(b []byte) bool {
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 || end > 32 {
		return false
	}
	name := string(b[1 : end+1])
	return jsonl.ParseEntryType(name) != jsonl.TypeUnknown
}

// tryObject parses one object at i. With entryLike, it must also look like a
// session line (a known type, or an id and a parentId), so that a content
// block inside a torn entry is not taken for an entry.
func (a *analysis) tryObject(r *jsonl.Reader, i int, entryLike bool) (segment, bool) {
	if a.text[i] != '{' {
		return segment{}, false
	}
	seg := segment{start: i}
	res := r.ReadFirst(a.text, i, &seg.f)
	if !res.OK() {
		return segment{}, false
	}
	seg.end = res.End
	if entryLike && !looksLikeEntry(&seg.f) {
		return segment{}, false
	}
	return seg, true
}

// looksLikeEntry reports whether an object has an id and a parentId, or a
// known type.
func looksLikeEntry(f *jsonl.Fields) bool {
	return f.ID != nil && f.ParentID != nil || jsonl.EntryTypeOf(f.Type) != jsonl.TypeUnknown
}

// addJunk records the bytes from start to end, white space after them left
// out, as junk: torn when they are the start of an object that ends early.
func (a *analysis) addJunk(r *jsonl.Reader, start, end int) {
	for end > start && jsonl.IsSpace(a.text[end-1]) {
		end--
	}
	if end <= start {
		return
	}
	pc := piece{start: start, end: end}
	if a.text[start] == '{' {
		pc.truncated = r.Read(a.text[start:end], 0, nil).EOF
	}
	a.junk = append(a.junk, pc)
}
