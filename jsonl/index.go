package jsonl

import (
	"io"
	"strconv"
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
	msgOff uint32 // message entries: where the message object starts in the line
}

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
	Version    int    // 1, 2 or 3 (3 when there is no header)
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
	parents     []int32          // each entry's parent entry: None for a root, dangling for a missing one
	pending     map[int32]string // during the pass: parents named before their entry was read
	parsedLines int              // during the pass: lines Pi's loader parses, headers included
	ids         *idTable
	labels      map[string]int32 // target id → the label entry that set its current label
	dangling    map[int32]string // entries whose parentId names no entry → that parentId
	parsed      []int32          // v1 only: parsed-line position → entry, for firstKeptEntryIndex
	ra          io.ReaderAt
	mu          sync.Mutex // guards win, so entries can be decoded from several goroutines
	win         window
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
	return &Index{Name: name, Version: CurrentVersion, ids: newIDTable(), labels: map[string]int32{}, pending: map[int32]string{}, ra: ra}
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

func (ix *Index) scan(sc *Scanner) error {
	var skimmer lineSkimmer
	if sc.mapped != nil {
		skimmer.data = sc.mapped.data
	}
	for sc.Scan() {
		l := sc.Line()
		var s skim
		f := factsOf(l, &s, skimmer.skimLine(l, &s).OK())
		ix.take(&f)
	}
	return sc.Err()
}

// lineFacts is what the index keeps of one line once it has been skimmed.
// The byte fields are raw JSON values; line.Bytes is kept for headers only.
type lineFacts struct {
	line                                   Line
	valid                                  bool // a JSON object, as Pi's loader needs
	header                                 bool
	node                                   node
	id, parentID, refValue, label, version []byte // refValue: of the type's reference key
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
	f.id, f.parentID, f.refValue, f.label, f.version = s.ID, s.ParentID, s.Refs[n.typ.Ref()], s.Label, s.Version
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
		ix.addNode(f)
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
	ix.Version = 1
	if v, err := strconv.Atoi(string(f.version)); err == nil {
		ix.Version = v
	}
	var h Header
	if Unmarshal(l.Bytes, &h) == nil { // safe: the skimmer validated the line
		ix.Header = h
	}
}

func (ix *Index) addNode(f *lineFacts) {
	i := int32(len(ix.nodes))
	var id []byte
	if ix.Version < 2 {
		id = []byte(MigratedID(ix.Header.ID, int(i), ix.idTaken))
		ix.noteParsed(ix.parsedLines-1, i)
		ix.parents = append(ix.parents, i-1) // v1: a chain; -1 is None for the first
	} else {
		id = idBytes(f.id)
		ix.parents = append(ix.parents, ix.parentOf(i, f.parentID))
	}
	ix.nodes = append(ix.nodes, f.node)
	ix.ids.add(id)
	if f.node.typ == TypeLabel && f.refValue != nil {
		target, _ := text(f.refValue)
		label, _ := text(f.label)
		ix.noteLabel(target, label, i)
	}
}

// parentOf resolves a parentId to an entry already indexed when it can; a
// parent not seen yet is kept by name until link.
func (ix *Index) parentOf(i int32, raw []byte) int32 {
	if len(raw) < 2 || raw[0] != '"' || len(raw) == 2 {
		return None // null, absent, "" or not a string: a root, as in Pi
	}
	if inner := raw[1 : len(raw)-1]; !hasEscapeOrInvalid(inner) {
		if i > 0 && ix.ids.id(i-1) == string(inner) {
			return i - 1 // the usual case, and the latest entry with that id
		}
		if p, ok := ix.ids.lookup(inner); ok {
			return p
		}
	}
	pid, _ := text(raw)
	ix.pending[i] = pid
	return dangling
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

// link resolves the parents named before their entry was read, and, when ids
// repeat, points every child at the last entry with its parent's id, as Pi's
// lookups do.
func (ix *Index) link() {
	for i, pid := range ix.pending {
		if p, ok := ix.ids.lookup([]byte(pid)); ok {
			ix.parents[i] = p
			delete(ix.pending, i)
		}
	}
	ix.dangling, ix.pending = ix.pending, nil
	if ix.ids.duplicates() {
		for i, p := range ix.parents {
			if p >= 0 {
				ix.parents[i], _ = ix.ids.lookup([]byte(ix.ids.id(p)))
			}
		}
	}
}

// dangling marks an entry whose parentId names no entry.
const dangling = -2

// closesAt reports whether the line's closing brace comes right at position
// end, with nothing (not even white space) between.
func closesAt(line []byte, end int) bool { return len(line) == end+1 }

// idBytes returns the text of a raw id value: the bytes between the quotes
// when there is no escape, the decoded string otherwise, and nothing for a
// missing or non-string id.
func idBytes(raw []byte) []byte {
	if len(raw) < 2 || raw[0] != '"' {
		return nil
	}
	if inner := raw[1 : len(raw)-1]; !hasEscapeOrInvalid(inner) {
		return inner
	}
	id, _ := DecodeString(raw)
	return []byte(id)
}
