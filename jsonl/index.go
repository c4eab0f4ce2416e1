package jsonl

import (
	"bytes"
	"io"
	"sync"
)

// None is the entry number that stands for "no entry" (a root's parent).
const None = -1

// MaxSampledLines is how many skipped lines (blank, garbage) and extra
// headers an index keeps with their positions; the rest are only counted.
const MaxSampledLines = 64

// node is what the index keeps of one entry: a few words, no content.
type node struct {
	offset int64
	length uint32
	line   uint32
	typ    EntryType
	role   Role   // message entries: the message's role
	plain  bool   // message entries: content is not null and "message" is the last key
	facts  facts  // what its id and parentId hold
	msgOff uint32 // message entries: where the message object starts in the line
}

// facts packs what an entry's id and parentId hold into the node's spare
// byte: its ParentValue, and whether it lacks a string id.
type facts uint8

const (
	factsParent facts = 3 // the bits of the ParentValue
	factsNoID   facts = 4 // v2 and v3: "id" is absent or not a string
)

// Index is the one-pass offset index of a session file: every entry as a small
// integer with its type, id, parent and position, and nothing else. Entries are
// decoded later, by offset, only when a caller needs them.
//
// It loads what Pi's loader loads: blank and malformed lines are skipped, header
// lines are not entries, and with duplicate ids the later entry wins. Unlike Pi
// it tolerates a byte-order mark and a missing header.
type Index struct {
	Name       string
	Header     Header // zero when HasHeader is false
	HasHeader  bool
	HeaderLine int    // line of the first header, 0 when missing
	Version    int    // 1, 2 or 3 as Pi reads the header (SessionVersion); 3 when there is no header
	Lines      int    // physical lines read
	Skipped    []Line // the first MaxSampledLines lines Pi's loader skips: blank, malformed, or not an object (Bytes nil)
	ExtraHeads []Line // the first MaxSampledLines header lines after the first (Bytes nil)
	Bytes      int64  // decompressed size
	// SkippedCount and ExtraHeadCount count every skipped line and every
	// header after the first; only the first few are kept with their positions,
	// so lines that are not entries cost the index nothing but these counters.
	SkippedCount, ExtraHeadCount int
	// Truncated is set when the compressed stream ended early
	// (Source.Truncated): the index holds the lines it yielded.
	Truncated bool

	nodes       []node
	parents     []int32          // each entry's parent entry: None for a root, dangling for a missing one, notNode
	pending     map[int32]string // during the pass: parents named before their entry was read
	pendingRefs map[int32]string // during the pass: references named before their entry was read
	parsedLines int              // during the pass: lines Pi's loader parses, headers included
	lastNode    int32            // during the pass: the last node added, None before the first
	nodeCount   int              // during the pass: the nodes added, the position of the next one
	ids         *idTable
	labels      map[string]int32 // target id → the label entry that set its current label
	dangling    map[int32]string // entries whose parentId names no entry → that parentId
	refs        map[int32]int32  // entries whose reference key names an entry → that entry
	parsed      []int32          // v1 only: parsed-line position → entry, for firstKeptEntryIndex
	// scanned holds, by entry number, the request skeletons of messages a
	// LoadIndexer's caller read whole (LoadIndexer.LineRead), so they are
	// not read back; NoRole where there is none. Their calls are
	// scannedCalls'.
	scanned      []scannedSkeleton
	scannedCalls []uint64
	ra           io.ReaderAt
	mu           sync.Mutex // guards win, so entries can be decoded from several goroutines
	win          window
}

// BuildIndex reads src once and indexes it. Sources that cannot seek are spooled
// first, so entries can be decoded by offset afterwards. A source that is not a
// Pi session (see the package doc) gives a *NotSessionError.
func BuildIndex(src *Source) (*Index, error) {
	if err := src.CheckSession(); err != nil {
		return nil, err
	}
	ra, err := src.ReaderAt()
	if err != nil {
		return nil, err
	}
	ix := newIndex(src.Name, ra)
	if workers := indexWorkers(src.Compression == Plain && src.Size > 0, src.Size); workers > 1 {
		err = ix.scanParallel(ra, src.Size, workers)
	} else if m, ok := mapForScan(ra); ok {
		err = ix.scanMapped(m)
		m.close()
	} else {
		err = ix.scan(NewScanner(src.Reader(), src.Name))
	}
	if err != nil {
		return nil, err
	}
	ix.Truncated = src.Truncated()
	ix.link()
	return ix, nil
}

// newIndex returns an empty index of the session named name, whose entries
// are decoded from ra.
func newIndex(name string, ra io.ReaderAt) *Index {
	return &Index{Name: name, Version: CurrentVersion, ids: newIDTable(), labels: map[string]int32{}, pending: map[int32]string{},
		pendingRefs: map[int32]string{}, refs: map[int32]int32{}, lastNode: None, ra: ra}
}

// IndexFile opens and indexes a file by name ("-" for stdin). The returned
// close function releases the file.
func IndexFile(name string, stdin io.Reader) (*Index, func() error, error) {
	src, err := Open(name, stdin)
	if err != nil {
		return nil, nil, err
	}
	ix, err := BuildIndex(src)
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return ix, src.Close, nil
}

// scan indexes the lines sc yields, growing its arrays as it goes.
func (ix *Index) scan(sc *Scanner) error { return ix.scanSized(sc, 0) }

// scanSized is scan for input of about size bytes (0: unknown): after its
// first ReaderAtReserveAfter bytes it makes room for the entries of the
// whole input instead of growing its arrays by appending.
func (ix *Index) scanSized(sc *Scanner, size int64) error {
	b := indexerOf(ix, size)
	if sc.mapped != nil {
		b.skimmer.data = sc.mapped.data
	}
	for sc.Scan() {
		b.Line(sc.Line())
	}
	return sc.Err()
}

// lineFacts is what the index keeps of one line once it has been skimmed,
// or of one entry a caller gives (IndexBuilder.Add). The text fields are
// decoded, and still point into the line (or the caller's strings);
// line.Bytes is kept for headers only.
type lineFacts struct {
	line    Line
	valid   bool // a JSON object, as Pi's loader needs
	header  bool
	notNode bool // IndexBuilder only: EntryFacts.NotNode
	node    node
	version []byte // headers: the raw "version" value
	// id, parentID (when parent is ParentNamed), ref (the value of the
	// type's reference key) and label, decoded.
	id, parentID, ref, label []byte
	hasID, hasRef            bool
	numID                    bool // id is a number's key (NumberIDKey), hasID false
	parent                   ParentValue
}

// factsOf turns a skimmed line into its facts; the byte fields still point
// into the line.
func factsOf(l Line, s *skim, valid bool) lineFacts {
	f := lineFacts{line: l, valid: valid}
	if !valid {
		f.line.Bytes = nil
		return f
	}
	n := node{offset: l.Offset, length: uint32(len(l.Bytes)), line: uint32(l.Num), typ: EntryTypeOf(s.Type)}
	f.header = n.typ == TypeSession
	f.version = s.Version
	if f.id, f.hasID = textBytes(s.ID); !f.hasID && isNumberStart(s.ID) {
		f.id, f.numID = NumberIDKey(s.ID), true
	}
	f.parent, f.parentID = parentValueOf(s.ParentID)
	if k := n.typ.Ref(); k != NoRef {
		f.ref, f.hasRef = textBytes(s.Refs[k])
	}
	if n.typ == TypeLabel {
		f.label, _ = textBytes(s.Label)
	}
	if n.typ == TypeMessage && s.Message != nil {
		n.role = RoleOf(s.Msg.Role)
		n.plain = s.MessageLast && !IsNull(s.Msg.Content) && closesAt(l.Bytes, s.MessageOffset+len(s.Message))
		n.msgOff = uint32(s.MessageOffset)
	}
	n.offset += int64(l.bomLen())
	f.node = n
	if !f.header {
		f.line.Bytes = nil
	}
	return f
}

// ParentValueOf says what the raw value of a parentId holds, and, for a
// ParentNamed, the id it names (decoded).
func ParentValueOf(raw []byte) (ParentValue, string) {
	v, id := parentValueOf(raw)
	return v, string(id)
}

// parentValueOf reads a raw parentId value: what it holds, and the id it
// names (decoded) when it is a non-empty string.
func parentValueOf(raw []byte) (ParentValue, []byte) {
	switch {
	case len(raw) == 0 || raw[0] == 'n':
		return NoParentValue, nil
	case isNumberStart(raw):
		return ParentNamed, NumberIDKey(raw) // Pi's Map finds the entry whose id is the same number
	case raw[0] != '"':
		return ParentNotString, nil
	}
	if id, _ := textBytes(raw); len(id) > 0 {
		return ParentNamed, id
	}
	return ParentEmpty, nil
}

// isNumberStart reports whether the raw JSON value raw is a number.
func isNumberStart(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// NumberIDKey is the key under which the index keeps an id, or finds a
// parent id, that is a number (raw, as written): Pi's Map tells the number
// 123 from the string "123", and a key starting with the byte 0xFF, which
// no UTF-8 string holds, is never a string id's. Numbers equal as doubles
// (150, 1.5e2) have one key.
func NumberIDKey(raw []byte) []byte {
	return append([]byte{0xFF}, JSNumbers(raw)...)
}

// IDValue returns the JSON value of an id as Index.ID gives it: a number
// for NumberIDKey's keys, a string otherwise.
func IDValue(id string) RawMessage {
	if len(id) > 0 && id[0] == 0xFF {
		return RawMessage(id[1:])
	}
	return QuoteString(id)
}

// take adds one line's facts to the index, in file order.
func (ix *Index) take(f *lineFacts) {
	l := f.line
	ix.Lines, ix.Bytes = l.Num, l.Offset+int64(l.Length)
	switch {
	case !f.valid:
		ix.noteSkipped(l)
	case f.header:
		ix.parsedLines++
		ix.noteHeader(f)
	default:
		ix.parsedLines++
		ix.addNode(f, ix.parsedLines-1)
	}
}

// noteSkipped counts a line Pi's loader skips, keeping the first few.
func (ix *Index) noteSkipped(l Line) {
	if ix.SkippedCount++; len(ix.Skipped) < MaxSampledLines {
		ix.Skipped = append(ix.Skipped, l)
	}
}

func (ix *Index) noteHeader(f *lineFacts) {
	l := f.line
	if ix.HasHeader {
		l.Bytes = nil
		if ix.ExtraHeadCount++; len(ix.ExtraHeads) < MaxSampledLines {
			ix.ExtraHeads = append(ix.ExtraHeads, l)
		}
		return
	}
	ix.HasHeader, ix.HeaderLine = true, l.Num
	ix.Version = SessionVersion(f.version)
	ix.Header = readHeader(l.Bytes) // safe: the skimmer validated the line
}

// readHeader reads a header line's members. Its version is left out (read
// from the raw value by SessionVersion), so that a "version" of another type
// ("3", which Pi reads as 3) does not cost the id, cwd and time, which Pi
// reads all the same; a header that does not decode is zero.
func readHeader(line []byte) Header {
	var h struct {
		Header
		Version any `json:"version"`
	}
	if Unmarshal(line, &h) != nil {
		return Header{}
	}
	h.Header.Version = 0
	return h.Header
}

// addNode adds an entry; pos is its position among the lines JSON.parse
// reads (None for none), which a v1 compaction's firstKeptEntryIndex counts.
func (ix *Index) addNode(f *lineFacts, pos int) {
	i := int32(len(ix.nodes))
	n := f.node
	id, hidden := f.id, !f.hasID && !f.numID
	switch {
	case f.notNode:
		id, hidden = nil, true
		ix.parents = append(ix.parents, notNode)
	case ix.Version < 2:
		id, hidden = []byte(MigratedID(ix.Header.ID, ix.nodeCount, ix.idTaken)), false
		if pos >= 0 {
			ix.noteParsed(pos, i)
		}
		if ix.lastNode != None {
			n.facts = facts(ParentNamed)
		}
		ix.parents = append(ix.parents, ix.lastNode) // v1: a chain
	default:
		n.facts = facts(f.parent)
		if !f.hasID {
			n.facts |= factsNoID
		}
		ix.parents = append(ix.parents, ix.parentOf(i, f))
	}
	ix.nodes = append(ix.nodes, n)
	ix.ids.add(id, hidden)
	if f.notNode {
		return
	}
	ix.lastNode, ix.nodeCount = i, ix.nodeCount+1
	if n.typ.Ref() != NoRef && f.hasRef {
		ix.noteRef(i, f.ref)
	}
	if n.typ == TypeLabel && f.hasRef {
		ix.noteLabel(string(f.ref), string(f.label), i)
	}
}

// parentOf resolves a parentId to an entry already indexed, or to the entry
// itself, when it can; a parent not seen yet is kept by name until link.
func (ix *Index) parentOf(i int32, f *lineFacts) int32 {
	if f.parent != ParentNamed {
		return None // null, absent, "" or not a string: a root, as in Pi
	}
	if i > 0 && !ix.ids.hidden(i-1) && ix.ids.is(i-1, f.parentID) {
		return i - 1 // the usual case, and the latest entry with that id
	}
	if p, ok := ix.ids.lookup(f.parentID); ok {
		return p
	}
	if (f.hasID || f.numID) && bytes.Equal(f.parentID, f.id) {
		return i // its own parent: link's lookup would find it, so it is not kept by name
	}
	ix.pending[i] = string(f.parentID)
	return dangling
}

// noteRef resolves entry i's reference to an entry already indexed when it
// can, and keeps it by name until link otherwise.
func (ix *Index) noteRef(i int32, ref []byte) {
	if p, ok := ix.ids.lookup(ref); ok {
		ix.refs[i] = p
		return
	}
	ix.pendingRefs[i] = string(ref)
}

func (ix *Index) noteLabel(target, label string, i int32) {
	if label == "" {
		delete(ix.labels, target)
		return
	}
	ix.labels[target] = i
}

func (ix *Index) noteParsed(pos int, i int32) {
	for len(ix.parsed) < pos {
		ix.parsed = append(ix.parsed, None)
	}
	ix.parsed = append(ix.parsed, i)
}

// idTaken reports whether an entry already indexed has id.
func (ix *Index) idTaken(id string) bool {
	_, taken := ix.ids.lookup([]byte(id))
	return taken
}

// link resolves the parents and references named before their entry was
// read, and, when ids repeat, points them at the last entry with the id
// they name, as Pi's lookups do. An entry that repeats an earlier one
// (idTable.same) is no node.
func (ix *Index) link() {
	dupes := ix.ids.duplicates()
	for _, d := range dupes {
		if d.repeat {
			ix.parents[d.entry] = notNode
			delete(ix.pending, d.entry)
			delete(ix.pendingRefs, d.entry)
			delete(ix.refs, d.entry)
		}
	}
	dangling := map[int32]string{} // a new map: pending keeps its buckets however many are resolved
	for i, pid := range ix.pending {
		if p, ok := ix.ids.lookup([]byte(pid)); ok {
			ix.parents[i] = p
		} else {
			dangling[i] = pid
		}
	}
	ix.dangling, ix.pending = dangling, nil
	for i, ref := range ix.pendingRefs {
		if p, ok := ix.ids.lookup([]byte(ref)); ok {
			ix.refs[i] = p
		}
	}
	ix.pendingRefs = nil
	if len(dupes) > 0 {
		ix.latestHolders()
	}
}

// latestHolders points every parent and reference at the last entry with
// the id it names.
func (ix *Index) latestHolders() {
	for i, p := range ix.parents {
		if p >= 0 {
			ix.parents[i], _ = ix.ids.latest(p)
		}
	}
	for i, r := range ix.refs {
		ix.refs[i], _ = ix.ids.latest(r)
	}
}

// notNode is the parent of an entry that is no node of the tree (see
// EntryFacts.NotNode and IndexOptions.Same).
const notNode = -3

// dangling marks an entry whose parentId names no entry.
const dangling = -2

// closesAt reports whether the line's closing brace comes right at position
// end, with nothing (not even white space) between.
func closesAt(line []byte, end int) bool { return len(line) == end+1 }

// textBytes returns the text of a raw string value: the bytes between the
// quotes when there is no escape, the decoded string otherwise; nothing and
// false for a missing or non-string value.
func textBytes(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if inner := raw[1 : len(raw)-1]; !hasEscapeOrInvalid(inner) {
		return inner, true
	}
	s, _ := DecodeString(raw)
	return []byte(s), true
}

// IndexReaderAt indexes the session whose decompressed text ra holds, read
// from the start to its end, as BuildIndex indexes a source: the file as Pi
// loads it, whose entries can be decoded.
func IndexReaderAt(name string, ra io.ReaderAt) (*Index, error) {
	return IndexReaderAtSized(name, ra, 0)
}
