package jsonl

import (
	"bytes"
	"fmt"
	"strconv"
)

// Entry is one decoded entry: its exact bytes, its fields in order (after
// in-memory migration), and its place in the index.
type Entry struct {
	N      int    // entry number in the index
	Line   int    // 1-based line number
	Offset int64  // byte offset of the JSON text
	Raw    []byte // the line's exact bytes as stored (before migration)
	Obj    Object // fields in key order, migrated to v3
	Type   EntryType
	ID     string
	Parent int // entry number of the parent, None for a root or a missing parent

	msg    Object // the message object, parsed along with the entry
	hasMsg bool
}

// TypeName returns the entry's type as written, unknown types included.
func (e *Entry) TypeName() string { return e.Obj.String("type") }

// ParentID returns the parentId as written ("" for null).
func (e *Entry) ParentID() string { return e.Obj.String("parentId") }

// Timestamp returns the entry's ISO timestamp.
func (e *Entry) Timestamp() string { return e.Obj.String("timestamp") }

// Message returns the "message" object of a message entry.
func (e *Entry) Message() (Object, error) {
	if e.hasMsg {
		return e.msg.Clone(), nil // callers may Set on it; the cache stays intact
	}
	raw := e.Obj.Get("message")
	if raw == nil {
		return Object{}, e.errorf("message entry has no message")
	}
	return ParseObject(raw)
}

func (e *Entry) errorf(format string, args ...any) error {
	return &PosError{Line: e.Line, Offset: e.Offset, Err: fmt.Errorf(format, args...)}
}

// readWindow is the most rawLine reads at once when entries are decoded in
// file order, as a path walk from the root does.
const readWindow = 1 << 20

// firstReadAhead is the read-ahead of the first read in file order after a
// jump; each further one in order doubles it, up to readWindow. A caller
// that reads entries far apart (the request check reads back only the
// context edits and bash executions of a session, one every 70 KB or so)
// thus reads little more than its entries: with a window of 1 MB at every
// read close to the last, validate of a 100 MB session read 149 MB back
// (issue 28).
const firstReadAhead = 8 << 10

// readGap is how far past the end of the last entry read a read may start
// and still count as reading in file order (a path skips the entries of
// other branches).
const readGap = 16 << 10

// window is the last block read ahead. Its buffer is the index's and each
// refill reuses it, so a path costs no fresh megabyte per megabyte read (that
// was a sixth of what an export allocated): rawLine copies each entry out,
// and no entry holds on to the window.
type window struct {
	off int64
	buf []byte // the bytes at off: mem's, or the last entry read alone
	mem []byte // the read-ahead buffer, reused
	end int64  // where the last entry read in file order ends
	// ahead is the size of the last read ahead, 0 after a jump.
	ahead int
}

// rawLine reads entry i's exact bytes by offset, into a slice of its own.
func (ix *Index) rawLine(i int) ([]byte, error) {
	var line []byte
	err := ix.withLine(i, func(b []byte, owned bool) error {
		if line = b; !owned {
			line = bytes.Clone(b)
		}
		return nil
	})
	return line, err
}

// withLine calls fn with entry i's exact bytes, read by offset. Reads in
// file order go through a read-ahead window, so a path is decoded with a few
// large reads rather than one system call per entry; other reads fetch just
// the entry. An entry a little behind the window (decoders working ahead in
// parallel finish out of order) is read alone and leaves the window where it
// is. owned says whether the bytes are fn's to keep; when not, they are the
// window's, valid only until fn returns, and fn must not use ix.
func (ix *Index) withLine(i int, fn func(line []byte, owned bool) error) error {
	n := ix.nodes[i]
	start, end := n.offset, n.offset+int64(n.length)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	w := &ix.win
	if start >= w.off && end <= w.off+int64(len(w.buf)) {
		w.end = end
		return fn(w.buf[start-w.off:end-w.off], false)
	}
	sequential := start >= w.end && start <= w.end+readGap
	if !sequential || n.length >= readWindow {
		buf := make([]byte, n.length)
		if k, err := ix.ra.ReadAt(buf, start); k < len(buf) {
			return ix.readError(n, err)
		}
		if justBehind := start < w.off && w.off-end <= readGap; !justBehind {
			w.off, w.buf, w.end, w.ahead = start, buf, end, 0 // reading on from here is reading in file order
			return fn(buf, false)                             // the window holds it now
		}
		return fn(buf, true)
	}
	w.ahead = min(max(2*w.ahead, firstReadAhead), readWindow)
	size := int(max(min(int64(w.ahead), ix.Bytes-start), int64(n.length))) // no window past the end of a small file
	if cap(w.mem) < size {
		w.mem = make([]byte, size)
	}
	k, err := ix.ra.ReadAt(w.mem[:size], start)
	if k < int(n.length) {
		w.off, w.buf = 0, nil
		return ix.readError(n, err)
	}
	w.off, w.buf, w.end = start, w.mem[:k], end
	return fn(w.buf[:n.length], false)
}

func (ix *Index) readError(n node, err error) error {
	return &PosError{File: ix.Name, Line: int(n.line), Offset: n.offset, Err: fmt.Errorf("read entry: %w", err)}
}

// Decode reads entry i by offset and returns it migrated to v3.
func (ix *Index) Decode(i int) (*Entry, error) { return ix.decode(i, "message") }

// DecodeOuter is Decode without parsing a message entry's message object on
// the way (Message parses it when asked), for a caller that decodes the
// message's bytes itself: the export's decoders walked each message twice
// (issue 16).
func (ix *Index) DecodeOuter(i int) (*Entry, error) { return ix.decode(i, "") }

// decode reads entry i and parses the value of key sub along with it when
// sub is set and the value is an object.
func (ix *Index) decode(i int, sub string) (*Entry, error) {
	n := ix.nodes[i]
	raw, err := ix.rawLine(i)
	if err != nil {
		return nil, err
	}
	e := &Entry{N: i, Line: int(n.line), Offset: n.offset, Raw: raw, Type: n.typ, ID: ix.ID(i), Parent: ix.Parent(i)}
	obj, end, err := parseObject(raw, skipSpace(raw, 0), sub, &e.msg, knownLast(n, sub))
	if err == nil {
		err = expectEnd(raw, end)
	}
	if err != nil {
		return nil, &PosError{File: ix.Name, Line: int(n.line), Offset: n.offset, Err: err}
	}
	msg := obj.Get("message") // the last one written: an earlier object may have been parsed
	e.Obj, e.hasMsg = obj, e.msg.Keys != nil && len(msg) > 0 && msg[0] == '{'
	ix.migrate(e)
	return e, nil
}

// knownLast is where parsing entry n's line for decode may take the message
// as read: a plain message entry's message ends where the line's object
// closes, as the index found when it checked the line, so DecodeOuter need
// not walk it (the export's decoders then walked every message twice).
// When sub asks for the message to be parsed, it is walked anyway.
func knownLast(n node, sub string) int {
	if n.plain && sub == "" {
		return int(n.msgOff)
	}
	return noKnownLast
}

// DecodePath decodes the entries of a path.
func (ix *Index) DecodePath(path []int) ([]*Entry, error) {
	out := make([]*Entry, len(path))
	for k, i := range path {
		e, err := ix.Decode(i)
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}

// migrate applies Pi's v1 → v2 → v3 migration to one entry, in memory.
func (ix *Index) migrate(e *Entry) {
	if ix.Version < 2 {
		ix.migrateV1(e)
	}
	if ix.Version < 3 && e.Type == TypeMessage {
		migrateHookMessage(e)
	}
}

func (ix *Index) migrateV1(e *Entry) {
	e.Obj = e.Obj.Clone()
	e.Obj.Set("id", QuoteString(e.ID))
	parent := RawMessage("null")
	if e.Parent >= 0 {
		parent = QuoteString(ix.ID(e.Parent))
	}
	e.Obj.Set("parentId", parent)
	if e.Type != TypeCompaction {
		return
	}
	idx, ok := KeptIndex(e.Obj.Get("firstKeptEntryIndex"))
	if !ok {
		return
	}
	if kept, ok := ix.ParsedEntry(idx); ok {
		e.Obj.Set(RefFirstKept.String(), QuoteString(ix.ID(kept)))
	}
	e.Obj.Delete("firstKeptEntryIndex")
}

// KeptIndex reads the raw value of a v1 compaction's "firstKeptEntryIndex",
// the position of the first kept entry among the lines JSON.parse accepts
// (the header is 0), as the v1 migration reads it; ok is false when it is
// not an integer.
func KeptIndex(raw []byte) (n int, ok bool) {
	n, err := strconv.Atoi(string(raw))
	return n, err == nil
}

func migrateHookMessage(e *Entry) {
	msg, err := e.Message()
	if err != nil || msg.String("role") != RoleHookMessage {
		return
	}
	msg.Set("role", QuoteString(RoleCustom))
	e.Obj = e.Obj.Clone()
	e.Obj.Set("message", msg.AppendJSON(nil))
	e.msg = msg
}
