package repair

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/pitool/pitool/jsonl"
)

// call is one tool call of an assistant message; hash is its id's, for the
// maps of the branch walk.
type call struct {
	id, name string
	hash     uint64
}

// idSeed hashes tool call ids; a collision would only pair the wrong call
// and result, with odds of 2⁻⁶⁴.
var idSeed = maphash.MakeSeed()

// entry is what the model keeps of one object found in the file (a header
// or an entry): a few fields, its position, and a hash of its bytes.
type entry struct {
	line     int   // physical line
	seg      int   // index of the object on its line (0 unless lines were joined)
	lineOff  int64 // byte offset of the line
	lineLen  int   // bytes of the line, newline included
	off      int64 // byte offset of the object (approximate when the line was normalised)
	id       string
	parent   string
	ref      string // targetId (label, context_edit), fromId (branch_summary), firstKeptEntryId (compaction)
	keptIdx  int    // v1 compaction firstKeptEntryIndex, -1 when absent
	parsed   int    // position among the lines JSON.parse accepts (header = 0), -1 when Pi skips the line
	callID   string // toolResult
	callHash uint64 // toolResult: callID's hash
	toolName string // toolResult
	calls    []call // assistant
	hash     uint64 // of the object's bytes, when the input cannot be read again
	vraw     string // header only: the raw version value ("" for v1)
	typ      jsonl.EntryType
	role     jsonl.Role
	pvalue   jsonl.ParentValue // what parentId holds; parent is the id when it is jsonl.ParentNamed
	header   bool
	hasID    bool
	hasRef   bool // ref is set
	aborted  bool // assistant stopReason error or aborted: its calls need no results
}

// lineRec is a physical line that repair must rewrite: it is not one clean
// object ending in LF. A run of lines that hold no object (blank lines,
// garbage) is one lineRec, so such lines cost nothing but a count.
type lineRec struct {
	num     int
	off     int64
	len     int  // bytes of all its lines, newlines included
	lines   int  // physical lines: more than 1 only for a run of segless lines
	junk    bool // it holds bytes that go to the quarantine
	segless bool // its lines hold no object
}

// blankRun is the run of blank lines being read, reported as one finding.
type blankRun struct {
	first jsonl.Line
	n     int
}

// model is the streaming pass's result: every object in file order, the
// lines that are not clean, and the framing findings met on the way.
type model struct {
	name    string
	entries []entry
	dirty   []lineRec
	lines   int
	bytes   int64
	parsed  int
	crlf    int
	blanks  blankRun
	torn    bool // the compressed stream ended early: the output must be rewritten whole
	seed    maphash.Seed
	ra      io.ReaderAt // the input, when it can be read again: hashes are then taken only when needed
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// bytesPerEntryGuess sizes the entry table from the file size, so a big file
// does not copy its table as it grows.
const bytesPerEntryGuess = 1024

// maxEntriesGuess caps that first size, for a huge file of few long lines.
const maxEntriesGuess = 1 << 20

// scanModel reads a session stream once and builds its model, adding the
// findings about single lines to fs. sizeHint is the input size if known.
func scanModel(ctx context.Context, r io.Reader, ra io.ReaderAt, name string, sizeHint int64, fs *findings) (*model, error) {
	m := &model{name: name, seed: maphash.MakeSeed(), ra: ra}
	if sizeHint > 0 {
		m.entries = make([]entry, 0, min(sizeHint/bytesPerEntryGuess, maxEntriesGuess)+16)
	}
	sc := jsonl.NewScanner(r, name)
	var sr jsonl.Reader
	var a analysis
	firstCR := jsonl.Line{}
	for sc.Scan() {
		l := sc.Line()
		if l.Num&4095 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		m.lines, m.bytes = l.Num, l.Offset+int64(l.Length)
		if l.CR {
			if m.crlf == 0 {
				firstCR = l
			}
			m.crlf++
		}
		analyse(&sr, l.Bytes, &a)
		m.noteLine(l, &a, fs)
		for k := range a.segs {
			m.addEntry(l, k, &a, fs)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	m.flushBlanks(fs)
	if m.crlf > 0 {
		fs.add("line.crlf", firstCR.Num, firstCR.Offset, "%d lines end in CRLF (a Windows editor); Pi keeps the CR out of the JSON but pitool writes LF", m.crlf)
	}
	return m, nil
}

// noteLine records a line that needs rewriting and reports what is wrong with it.
func (m *model) noteLine(l jsonl.Line, a *analysis, fs *findings) {
	if l.BOM || l.CR || l.Unterminated || !a.clean() {
		m.markDirty(l, a)
	}
	if a.parsed() {
		m.parsed++
	}
	if l.BOM {
		fs.add("line.bom", l.Num, l.Offset, "the file starts with a UTF-8 byte-order mark; Pi cannot parse the header and refuses to open the file")
	}
	if a.nuls > 0 {
		fs.add("line.nul", l.Num, l.Offset, "%d NUL bytes (the file length reached the disk, the data did not)", a.nuls)
	}
	if a.badUTF8 {
		fs.add("line.invalid-utf8", l.Num, l.Offset, "invalid UTF-8; Pi reads those bytes as U+FFFD")
	}
	switch {
	case a.blank && a.nuls == 0:
		m.noteBlank(l, fs)
	case a.notObject:
		fs.add("line.not-object", l.Num, l.Offset, "valid JSON, but not an object: Pi loads it as a broken entry")
	case a.clean() && l.Unterminated:
		fs.add("line.unterminated", l.Num, l.Offset, "the last line has no final newline; Pi appends one when it opens the file")
	}
	if len(a.segs) > 1 {
		fs.add("line.joined", l.Num, l.Offset, "%d entries joined on one line (two writers interleaved); Pi drops all of them", len(a.segs))
	}
	if !a.notObject {
		m.noteJunk(l, a, fs)
	}
}

// markDirty records a line to rewrite; a line without objects right after
// another one joins its run.
func (m *model) markDirty(l jsonl.Line, a *analysis) {
	junk := len(a.junk) > 0
	if n := len(m.dirty); n > 0 && len(a.segs) == 0 {
		last := &m.dirty[n-1]
		if last.num+last.lines == l.Num && last.segless {
			last.len += l.Length
			last.lines++
			last.junk = last.junk || junk
			return
		}
	}
	m.dirty = append(m.dirty, lineRec{num: l.Num, off: l.Offset, len: l.Length, lines: 1, junk: junk, segless: len(a.segs) == 0})
}

// noteBlank adds a blank line to the current run of blank lines, reporting
// the previous run when this one does not continue it.
func (m *model) noteBlank(l jsonl.Line, fs *findings) {
	if b := &m.blanks; b.n > 0 && b.first.Num+b.n == l.Num {
		b.n++
		return
	}
	m.flushBlanks(fs)
	m.blanks = blankRun{first: l, n: 1}
}

// flushBlanks reports the run of blank lines read last, as one finding.
func (m *model) flushBlanks(fs *findings) {
	b := m.blanks
	switch {
	case b.n == 1:
		fs.add("line.blank", b.first.Num, b.first.Offset, "a blank line")
	case b.n > 1:
		fs.add("line.blank", b.first.Num, b.first.Offset, "%d blank lines (lines %d to %d)", b.n, b.first.Num, b.first.Num+b.n-1)
	}
	m.blanks = blankRun{}
}

func (m *model) noteJunk(l jsonl.Line, a *analysis, fs *findings) {
	for _, pc := range a.junk {
		off := l.Offset + int64(a.rawOffset(pc.start))
		switch {
		case pc.truncated:
			fs.add("line.truncated", l.Num, off, "a torn entry of %d bytes that ends early (a crash during an append); Pi skips it", pc.end-pc.start)
		case a.text[pc.start] == '{' || a.text[pc.start] == '[':
			fs.add("line.invalid-json", l.Num, off, "%d bytes of invalid JSON; Pi skips them", pc.end-pc.start)
		default:
			fs.add("line.garbage", l.Num, off, "%d bytes of garbage that are not JSON; Pi skips them", pc.end-pc.start)
		}
	}
}

// addEntry records object k of line l.
func (m *model) addEntry(l jsonl.Line, k int, a *analysis, fs *findings) {
	s := &a.segs[k]
	f := &s.f
	e := entry{line: l.Num, seg: k, lineOff: l.Offset, lineLen: l.Length, off: l.Offset + int64(a.rawOffset(s.start)), keptIdx: -1, parsed: -1}
	if a.parsed() {
		e.parsed = m.parsed - 1
	}
	if m.ra == nil {
		e.hash = maphash.Bytes(m.seed, a.text[s.start:s.end])
	}
	e.header, e.typ = typeOf(f.Type)
	e.id, e.hasID = jsonl.DecodeString(f.ID)
	e.pvalue, e.parent = jsonl.ParentValueOf(f.ParentID)
	if e.header && f.Version != nil {
		e.vraw = string(f.Version)
	}
	e.readRefs(f)
	e.readMessage(f)
	m.entries = append(m.entries, e)
	checkContent(&e, f, fs)
}

// readRefs reads the entry's reference key (jsonl.EntryType.Ref), and the
// line index a v1 compaction keeps from.
func (e *entry) readRefs(f *jsonl.Fields) {
	if k := e.typ.Ref(); k != jsonl.NoRef {
		e.ref, e.hasRef = jsonl.DecodeString(f.Refs[k])
	}
	if e.typ != jsonl.TypeCompaction || f.FirstKeptIndex == nil {
		return
	}
	if n, ok := jsonl.KeptIndex(f.FirstKeptIndex); ok && n >= 0 {
		e.keptIdx = n
	}
}

func (e *entry) readMessage(f *jsonl.Fields) {
	if e.typ != jsonl.TypeMessage {
		return
	}
	if e.role = roleOf(f.Msg.Role); e.role == jsonl.NoRole {
		return
	}
	switch e.role {
	case jsonl.ToolResultRole:
		e.callID, _ = jsonl.DecodeString(f.Msg.ToolCallID)
		e.callHash = maphash.String(idSeed, e.callID)
		e.toolName, _ = jsonl.DecodeString(f.Msg.ToolName)
	case jsonl.AssistantRole:
		stop, _ := jsonl.DecodeString(f.Msg.StopReason)
		e.aborted = stop == "error" || stop == "aborted"
		for _, c := range f.Msg.ToolCalls {
			id, _ := jsonl.DecodeString(c.ID)
			name, _ := jsonl.DecodeString(c.Name)
			e.calls = append(e.calls, call{id: id, name: name, hash: maphash.String(idSeed, id)})
		}
	}
}

// same reports whether objects i and j have the same bytes: compared byte
// for byte when the input can be read again (always, for repair), by the
// hash taken during the scan otherwise.
func (m *model) same(i, j int) bool {
	if m.ra == nil {
		return m.entries[i].hash == m.entries[j].hash
	}
	a, errA := m.objectText(i)
	b, errB := m.objectText(j)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// objectText reads object i back: its bytes as the scan saw them (after
// normalising the line).
func (m *model) objectText(i int) ([]byte, error) {
	e := &m.entries[i]
	raw, err := m.readLine(lineRec{num: e.line, off: e.lineOff, len: e.lineLen})
	if err != nil {
		return nil, err
	}
	var r jsonl.Reader
	var a analysis
	analyse(&r, raw, &a)
	if e.seg >= len(a.segs) {
		return nil, &jsonl.PosError{File: m.name, Line: e.line, Offset: e.lineOff, Err: fmt.Errorf("the line changed while it was being read")}
	}
	s := a.segs[e.seg]
	return append([]byte(nil), a.text[s.start:s.end]...), nil
}

// readLine reads a physical line back and strips its newline, CR and (on
// line 1) byte-order mark, as the scanner did.
func (m *model) readLine(l lineRec) ([]byte, error) {
	raw := make([]byte, l.len)
	if n, err := m.ra.ReadAt(raw, l.off); n < l.len {
		return nil, &jsonl.PosError{File: m.name, Line: l.num, Offset: l.off, Err: fmt.Errorf("read back: %w", err)}
	}
	raw = bytes.TrimSuffix(raw, []byte("\n"))
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	if l.num == 1 {
		raw = bytes.TrimPrefix(raw, bom)
	}
	return raw, nil
}

// typeOf reads an entry's type from the raw value of its "type"; the
// header is told apart.
func typeOf(raw []byte) (header bool, typ jsonl.EntryType) {
	if typ = jsonl.EntryTypeOf(raw); typ == jsonl.TypeSession {
		return true, jsonl.TypeUnknown
	}
	return false, typ
}

// roleOf reads a message's role from the raw value of its "role". v2's
// hookMessage is read as custom, the role Pi migrates it to.
func roleOf(raw []byte) jsonl.Role {
	if r := jsonl.RoleOf(raw); r != jsonl.HookMessageRole {
		return r
	}
	return jsonl.CustomRole
}
