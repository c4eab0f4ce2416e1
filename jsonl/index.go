package jsonl

import (
	"crypto/sha256"
	"encoding/hex"
	json "github.com/goccy/go-json"
	"io"
	"strconv"
)

// None is the entry number that stands for "no entry" (a root's parent).
const None = -1

// node is what the index keeps of one entry: a few words, no content.
type node struct {
	offset int64
	length uint32
	line   uint32
	typ    EntryType
	id     string
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
	Skipped    []Line // lines Pi's loader skips: blank, malformed, or not an object (Bytes nil)
	ExtraHeads []Line // header lines after the first (Bytes nil)
	Bytes      int64  // decompressed size

	nodes     []node
	parents   []int32  // each entry's parent entry: None for a root, dangling for a missing one
	parentIDs []string // during the pass only: each entry's parentId ("" for null)
	byID      map[string]int32
	labels    map[string]int32 // target id → the label entry that set its current label
	dangling  map[int32]string // entries whose parentId names no entry → that parentId
	parsed    []int32          // v1 only: parsed-line position → entry, for firstKeptEntryIndex
	ra        io.ReaderAt
}

// BuildIndex reads src once and indexes it. Sources that cannot seek are spooled
// first, so entries can be decoded by offset afterwards.
func BuildIndex(src *Source) (*Index, error) {
	ra, err := src.ReaderAt()
	if err != nil {
		return nil, err
	}
	ix := &Index{Name: src.Name, Version: CurrentVersion, byID: map[string]int32{}, labels: map[string]int32{}, dangling: map[int32]string{}, ra: ra}
	if err := ix.scan(NewScanner(src.Reader(), src.Name)); err != nil {
		return nil, err
	}
	ix.link()
	return ix, nil
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
	parsed := 0
	for sc.Scan() {
		l := sc.Line()
		ix.Lines, ix.Bytes = l.Num, l.Offset+int64(l.Length)
		var s skim
		if !skimLine(l.Bytes, &s) {
			l.Bytes = nil
			ix.Skipped = append(ix.Skipped, l)
			continue
		}
		parsed++
		if s.Type == "session" {
			ix.noteHeader(l, &s)
			continue
		}
		ix.addNode(l, &s, parsed-1)
	}
	return sc.Err()
}

func (ix *Index) noteHeader(l Line, s *skim) {
	if ix.HasHeader {
		l.Bytes = nil
		ix.ExtraHeads = append(ix.ExtraHeads, l)
		return
	}
	ix.HasHeader, ix.HeaderLine = true, l.Num
	ix.Version = 1
	if s.Version != nil {
		ix.Version = *s.Version
	}
	var h Header
	if json.Unmarshal(l.Bytes, &h) == nil { // safe: skimLine validated the line
		ix.Header = h
	}
}

func (ix *Index) addNode(l Line, s *skim, parsedPos int) {
	n := node{offset: l.Offset, length: uint32(len(l.Bytes)), line: uint32(l.Num), typ: ParseEntryType(s.Type)}
	if l.BOM {
		n.offset += int64(len(bom))
	}
	i := int32(len(ix.nodes))
	parentID := ""
	if ix.Version < 2 {
		n.id, parentID = ix.migratedID(i), ix.lastID()
		ix.noteParsed(parsedPos, i)
	} else {
		n.id = deref(s.ID)
		parentID = deref(s.ParentID)
	}
	ix.nodes = append(ix.nodes, n)
	ix.parentIDs = append(ix.parentIDs, parentID)
	ix.byID[n.id] = i
	if n.typ == TypeLabel && s.TargetID != nil {
		ix.noteLabel(*s.TargetID, s.Label, i)
	}
}

func (ix *Index) noteLabel(target string, label *string, i int32) {
	if label == nil || *label == "" {
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

func (ix *Index) lastID() string {
	if len(ix.nodes) == 0 {
		return ""
	}
	return ix.nodes[len(ix.nodes)-1].id
}

// migratedID derives the id a v1 entry gets: 8 hex characters from the session
// id and the entry's position, so two runs over one file agree.
func (ix *Index) migratedID(i int32) string {
	for salt := 0; ; salt++ {
		sum := sha256.Sum256([]byte(ix.Header.ID + "/" + strconv.Itoa(int(i)) + "/" + strconv.Itoa(salt)))
		id := hex.EncodeToString(sum[:4])
		if _, taken := ix.byID[id]; !taken {
			return id
		}
	}
}

// link resolves parent ids to entry numbers once every id is known, as Pi's
// lookups do: a parent written after its child still counts.
func (ix *Index) link() {
	ix.parents = make([]int32, len(ix.nodes))
	for i, pid := range ix.parentIDs {
		ix.parents[i] = None
		if pid == "" {
			continue
		}
		if p, ok := ix.byID[pid]; ok {
			ix.parents[i] = p
		} else {
			ix.parents[i] = dangling
			ix.dangling[int32(i)] = pid
		}
	}
	ix.parentIDs = nil
}

// dangling marks an entry whose parentId names no entry.
const dangling = -2

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
