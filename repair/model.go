package repair

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"sort"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// call is one tool call of an assistant message: the hashes of its id (for
// the maps of the branch walk) and of its name. The texts are read again
// when a finding or a fix needs them (model.toolTexts).
type call struct {
	hash, nameHash uint64
}

// toolText is the text of a tool call's id and name, or of a tool
// result's toolCallId and toolName.
type toolText struct {
	id, name string
}

// emptyNameHash is the name hash of a call without a name, which cannot
// say that a result's toolName is wrong.
var emptyNameHash = maphash.String(idSeed, "")

// idSeed hashes tool call ids; a collision would only pair the wrong call
// and result, with odds of 2⁻⁶⁴.
var idSeed = maphash.MakeSeed()

// entry is one object found in the file (a header or an entry) as the
// checks read it. The model does not keep entries: addEntry fills one from
// the line, keeps what the index and the side tables need, and model.at
// makes it again from them.
type entry struct {
	line     int        // physical line
	off      int64      // byte offset of the object (approximate when the line was normalised)
	id       string     // the scan and headers only: model.at leaves it empty for an entry (see model.rawID)
	hasID    bool       // "id" is a string (model.at: as the index says, so only for v2 and v3)
	ref      string     // targetId (label, context_edit), fromId (branch_summary), firstKeptEntryId (compaction)
	keptIdx  int        // v1 compaction firstKeptEntryIndex, -1 when absent
	callHash uint64     // toolResult: the hash of its toolCallId
	nameHash uint64     // toolResult: the hash of its toolName
	calls    []call     // assistant
	texts    []toolText // the scan only: a result's (one) or an assistant's calls' texts
	typ      jsonl.EntryType
	role     jsonl.Role
	header   bool
	hasRef   bool // ref is set
	aborted  bool // assistant stopReason error or aborted: its calls need no results
}

// headerRec is what the model keeps of a header object: it is no node of
// the tree, so the index keeps neither its id nor its version.
type headerRec struct {
	entry int
	id    string
	hasID bool
	vraw  string // the raw version value ("" for v1)
}

// resultRec is what the path check needs of a tool result.
type resultRec struct {
	callHash, nameHash uint64
}

// callsRec is what the path check needs of an assistant message that makes
// tool calls: they are model.calls[first : first+n].
type callsRec struct {
	first   int
	n       int32 // a line holds at most jsonl.MaxLineBytes, so fewer calls than that
	aborted bool
}

// sideTable holds a record for a few objects, by ascending entry number.
type sideTable[T any] struct {
	at   []int32
	recs []T
}

func (t *sideTable[T]) add(i int, rec T) {
	t.at, t.recs = append(t.at, int32(i)), append(t.recs, rec)
}

// get is object i's record, nil when it has none.
func (t *sideTable[T]) get(i int) *T {
	k, found := slices.BinarySearch(t.at, int32(i))
	if !found {
		return nil
	}
	return &t.recs[k]
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

// model is the streaming pass's result: every object in file order, as an
// index (its entry numbers are the objects'), the few facts the index does
// not hold in side tables keyed by entry number, the lines that are not
// clean, and the framing findings met on the way. An object's line and
// position are the index's (LineNum, Offset); where its line starts and
// ends is the line's lineRec when the line is dirty, and the object's own
// offset up to the next newline otherwise.
type model struct {
	name string
	n    int // objects found
	// ix is the objects' tree (see structure.ix), fed during the scan from
	// the first header on, when the version and session id it needs are
	// known; early holds the objects before it until then.
	ix    *jsonl.Index
	b     *jsonl.IndexBuilder
	early []jsonl.EntryFacts
	// reserved is set once the index has made room for the whole file
	// (reserveAfter).
	reserved bool
	headers  []headerRec
	refs     map[int]string // the reference key's text, of the entries where it is a string
	kept     map[int]int    // v1 compactions' firstKeptEntryIndex, when not negative
	results  sideTable[resultRec]
	callers  sideTable[callsRec]
	calls    []call // every assistant's tool calls, in file order
	callBuf  []call // the scan's: room for the calls of the entry being read
	// texts holds the tool texts (model.toolTexts) when the input cannot
	// be read again.
	texts   map[int][]toolText
	readErr error    // the first failure to read an object back for its texts
	hashes  []uint64 // each object's hash of its bytes, when the input cannot be read again
	dirty   []lineRec
	lines   int
	bytes   int64
	parsed  int
	crlf    int
	blanks  blankRun
	torn    bool // the compressed stream ended early: the output must be rewritten whole
	seed    maphash.Seed
	ra      io.ReaderAt // the input, when it can be read again: objects are then compared by their bytes
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// reserveAfter is how much of a file the scan reads before the index makes
// room for all its entries, estimated from the entries per byte so far.
const reserveAfter = 4 << 20

// scanModel reads a session stream once and builds its model, adding the
// findings about single lines to fs. sizeHint is the input size if known.
// Every line is given to load too, when not nil, so that one read of the
// input builds both the model and the index of the file as Pi loads it.
func scanModel(ctx context.Context, r io.Reader, ra io.ReaderAt, name string, sizeHint int64, fs *findings, load *jsonl.LoadIndexer) (*model, error) {
	m := &model{name: name, seed: maphash.MakeSeed(), ra: ra, refs: map[int]string{}, kept: map[int]int{}, texts: map[int][]toolText{}}
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
		if m.b != nil && !m.reserved && sizeHint > 0 && m.bytes >= reserveAfter {
			m.b.ReserveFor(m.bytes, sizeHint)
			m.reserved = true
		}
		analyse(&sr, l.Bytes, &a)
		feedLoad(load, l, &sr, &a)
		m.noteLine(l, &a, fs)
		for k := range a.segs {
			m.addEntry(l, k, &a, fs)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	m.flushBlanks(fs)
	m.finishIndex()
	if m.crlf > 0 {
		fs.add("line.crlf", firstCR.Num, firstCR.Offset, "%s in CRLF (a Windows editor); Pi keeps the CR out of the JSON but pitool writes LF", textout.Count(m.crlf, "line")+textout.Choose(m.crlf, " ends", " end"))
	}
	return m, nil
}

// feedLoad gives line l, which a analysed with r, to load: r's read when
// it read the line whole, which the index takes as its own skim would give
// it, the line to skim again otherwise.
func feedLoad(load *jsonl.LoadIndexer, l jsonl.Line, r *jsonl.Reader, a *analysis) {
	switch {
	case load == nil:
	case a.readAt >= 0:
		load.LineRead(l, r, a.readAt)
	default:
		load.Line(l)
	}
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
	e := entry{line: l.Num, off: l.Offset + int64(a.rawOffset(s.start)), keptIdx: -1}
	parsed := -1
	if a.parsed() {
		parsed = m.parsed - 1
	}
	if m.ra == nil {
		m.hashes = append(m.hashes, maphash.Bytes(m.seed, a.text[s.start:s.end]))
	}
	e.header, e.typ = typeOf(f.Type)
	e.id, e.hasID = jsonl.DecodeString(f.ID)
	e.readRefs(f)
	e.calls = m.callBuf[:0]
	e.readMessage(f, m.ra == nil)
	facts := jsonl.EntryFacts{Line: e.line, Offset: e.off, Type: e.typ, Role: e.role, ID: e.id, HasID: e.hasID,
		Ref: e.ref, HasRef: e.hasRef, Parsed: parsed, NotNode: e.header}
	facts.Parent, facts.ParentID = jsonl.ParentValueOf(f.ParentID)
	if e.header {
		facts.Type = jsonl.TypeSession // tells a header from an entry in the index: see model.at
		m.headers = append(m.headers, headerRec{entry: m.n, id: e.id, hasID: e.hasID})
		if f.Version != nil {
			m.headers[len(m.headers)-1].vraw = string(f.Version)
		}
	}
	m.keep(&e)
	m.callBuf = e.calls[:0]
	m.feed(&facts)
	checkContent(&e, f, fs)
}

// keep puts what entry m.n has beyond the index in the side tables.
func (m *model) keep(e *entry) {
	if e.hasRef {
		m.refs[m.n] = e.ref
	}
	if e.keptIdx >= 0 {
		m.kept[m.n] = e.keptIdx
	}
	switch {
	case e.role == jsonl.ToolResultRole:
		m.results.add(m.n, resultRec{callHash: e.callHash, nameHash: e.nameHash})
	case len(e.calls) > 0:
		m.callers.add(m.n, callsRec{first: len(m.calls), n: int32(len(e.calls)), aborted: e.aborted})
		m.calls = append(m.calls, e.calls...)
	}
	if m.ra == nil && len(e.texts) > 0 {
		m.texts[m.n] = e.texts
	}
}

// feed gives entry m.n to the index. Until the first header the index
// cannot be started (the header's version says how v1 ids are made), so the
// objects before it wait in early.
func (m *model) feed(f *jsonl.EntryFacts) {
	m.n++
	if m.b == nil && f.Type == jsonl.TypeSession {
		h := m.headers[0]
		m.startIndex(jsonl.IndexOptions{Version: jsonl.SessionVersion([]byte(h.vraw)), SessionID: h.id})
	}
	if m.b == nil {
		m.early = append(m.early, *f)
		return
	}
	m.b.Add(f)
}

// startIndex starts the index and gives it the objects read so far.
func (m *model) startIndex(opts jsonl.IndexOptions) {
	opts.Same = m.same
	m.b = jsonl.NewIndexBuilder(m.name, opts)
	m.ix = m.b.Building()
	for k := range m.early {
		m.b.Add(&m.early[k])
	}
	m.early = nil
}

// finishIndex links the index once every object is read; a file without a
// header gets the current version.
func (m *model) finishIndex() {
	if m.b == nil {
		m.startIndex(jsonl.IndexOptions{Version: jsonl.CurrentVersion})
	}
	m.ix = m.b.Index()
	m.b = nil
}

// at is object i as the checks read it, made again from the index and the
// side tables; its id is left empty unless it is a header.
func (m *model) at(i int) entry {
	e := entry{line: m.ix.LineNum(i), off: m.ix.Offset(i), typ: m.ix.Type(i), role: m.ix.MessageRole(i), hasID: m.ix.HasID(i), keptIdx: -1}
	if e.typ == jsonl.TypeSession {
		h := m.headers[m.headerNum(i)]
		e.typ, e.header, e.id, e.hasID = jsonl.TypeUnknown, true, h.id, h.hasID
		return e
	}
	if e.typ.Ref() != jsonl.NoRef {
		e.ref, e.hasRef = m.refs[i]
	}
	if k, ok := m.kept[i]; ok && e.typ == jsonl.TypeCompaction {
		e.keptIdx = k
	}
	if e.typ != jsonl.TypeMessage {
		return e
	}
	if r := m.results.get(i); e.role == jsonl.ToolResultRole && r != nil {
		e.callHash, e.nameHash = r.callHash, r.nameHash
	}
	if e.role == jsonl.AssistantRole {
		e.calls, e.aborted = m.callsOf(i)
	}
	return e
}

// isHeader reports whether object i is a header.
func (m *model) isHeader(i int) bool { return m.ix.Type(i) == jsonl.TypeSession }

// headerNum is header object i's place among the headers.
func (m *model) headerNum(i int) int {
	return sort.Search(len(m.headers), func(k int) bool { return m.headers[k].entry >= i })
}

// callsOf is the tool calls of assistant message i, and whether its turn
// failed.
func (m *model) callsOf(i int) ([]call, bool) {
	c := m.callers.get(i)
	if c == nil {
		return nil, false
	}
	end := c.first + int(c.n)
	return m.calls[c.first:end:end], c.aborted
}

// toolTexts is the text of tool result i's toolCallId and toolName (one
// toolText), or of assistant i's calls' ids and names, read again from the
// line when the input can be. A failure to read leaves them empty and is
// kept in readErr.
func (m *model) toolTexts(i int) []toolText {
	if m.ra == nil {
		return m.texts[i]
	}
	a, k, err := m.segmentOf(i)
	if err != nil {
		if m.readErr == nil {
			m.readErr = err
		}
		return nil
	}
	var e entry
	e.typ = jsonl.TypeMessage
	e.readMessage(&a.segs[k].f, true)
	return e.texts
}

// resultText is tool result i's toolCallId and toolName.
func (m *model) resultText(i int) toolText {
	if t := m.toolTexts(i); len(t) == 1 {
		return t[0]
	}
	return toolText{}
}

// rawID is object i's id as written ("" when it has no string id): the
// index's for v2 and v3 (which keep it), read again from the file for v1,
// whose index holds the generated ids.
func (m *model) rawID(i int) (string, error) {
	if m.isHeader(i) {
		return m.headers[m.headerNum(i)].id, nil
	}
	if m.ix.Version >= 2 {
		return m.ix.ID(i), nil
	}
	a, s, err := m.segmentOf(i)
	if err != nil {
		return "", err
	}
	id, _ := jsonl.DecodeString(a.segs[s].f.ID)
	return id, nil
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

// readMessage reads a message entry's role and tool calls or result from
// its fields: their hashes, and with texts their texts too (hashed in
// place, the texts cost the scan a string per id and name; issue 28).
// e.calls, when not nil, is where the calls are appended.
func (e *entry) readMessage(f *jsonl.Fields, texts bool) {
	if e.typ != jsonl.TypeMessage {
		return
	}
	if e.role = roleOf(f.Msg.Role); e.role == jsonl.NoRole {
		return
	}
	switch e.role {
	case jsonl.ToolResultRole:
		e.callHash, e.nameHash = jsonl.HashText(idSeed, f.Msg.ToolCallID), jsonl.HashText(idSeed, f.Msg.ToolName)
		if texts {
			e.texts = []toolText{textsOf(f.Msg.ToolCallID, f.Msg.ToolName)}
		}
	case jsonl.AssistantRole:
		stop, _ := jsonl.DecodeString(f.Msg.StopReason)
		e.aborted = stop == "error" || stop == "aborted"
		for _, c := range f.Msg.ToolCalls {
			e.calls = append(e.calls, call{hash: jsonl.HashText(idSeed, c.ID), nameHash: jsonl.HashText(idSeed, c.Name)})
			if texts {
				e.texts = append(e.texts, textsOf(c.ID, c.Name))
			}
		}
	}
}

// textsOf is the toolText of the raw id and name of a call or result.
func textsOf(id, name []byte) toolText {
	t := toolText{}
	t.id, _ = jsonl.DecodeString(id)
	t.name, _ = jsonl.DecodeString(name)
	return t
}

// same reports whether objects i and j have the same bytes: compared byte
// for byte when the input can be read again (always, for repair), by the
// hash taken during the scan otherwise.
func (m *model) same(i, j int) bool {
	if m.ra == nil {
		return m.hashes[i] == m.hashes[j]
	}
	a, errA := m.objectText(i)
	b, errB := m.objectText(j)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// objectText reads object i back: its bytes as the scan saw them (after
// normalising the line).
func (m *model) objectText(i int) ([]byte, error) {
	a, k, err := m.segmentOf(i)
	if err != nil {
		return nil, err
	}
	s := a.segs[k]
	return append([]byte(nil), a.text[s.start:s.end]...), nil
}

// segmentOf reads object i's line back and analyses it again, as the scan
// did: the analysis, and which of its segments the object is.
func (m *model) segmentOf(i int) (*analysis, int, error) {
	l, seg, err := m.lineOf(i)
	if err != nil {
		return nil, 0, err
	}
	raw, err := m.readLine(l)
	if err != nil {
		return nil, 0, err
	}
	var r jsonl.Reader
	a := &analysis{}
	analyse(&r, raw, a)
	if seg >= len(a.segs) {
		return nil, 0, &jsonl.PosError{File: m.name, Line: l.num, Offset: l.off, Err: fmt.Errorf("the line changed while it was being read")}
	}
	return a, seg, nil
}

// lineOf is the physical line of object i, and the object's index among the
// objects on it. A dirty line is its lineRec; a clean line holds one object
// and nothing else, so it starts at the object and ends at the next newline.
func (m *model) lineOf(i int) (lineRec, int, error) {
	num := m.ix.LineNum(i)
	k := sort.Search(len(m.dirty), func(k int) bool { return m.dirty[k].num >= num })
	if k < len(m.dirty) && m.dirty[k].num == num {
		first := i
		for first > 0 && m.ix.LineNum(first-1) == num {
			first--
		}
		return m.dirty[k], i - first, nil
	}
	off := m.ix.Offset(i)
	n, err := m.lineLength(num, off)
	return lineRec{num: num, off: off, len: n}, 0, err
}

// lineLength is the length, newline included, of the clean line number num
// at offset off.
func (m *model) lineLength(num int, off int64) (int, error) {
	buf := make([]byte, 4096)
	for n := 0; ; {
		got, err := m.ra.ReadAt(buf, off+int64(n))
		if k := bytes.IndexByte(buf[:got], '\n'); k >= 0 {
			return n + k + 1, nil
		}
		n += got
		if err != nil {
			return 0, &jsonl.PosError{File: m.name, Line: num, Offset: off, Err: fmt.Errorf("read back: no newline: %w", err)}
		}
		if got == len(buf) && len(buf) < 1<<20 {
			buf = make([]byte, 2*len(buf))
		}
	}
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
