package jsonl

import "unsafe"

// EntryFacts is one entry as a caller that reads the file itself gives it
// to an IndexBuilder: where it is and the few fields the tree is made of,
// decoded. validate builds its index this way, from every object it finds,
// those of damaged lines Pi skips included.
type EntryFacts struct {
	Line   int   // physical line, 1-based
	Offset int64 // byte offset of the entry
	Type   EntryType
	Role   Role   // a message entry's message's role
	ID     string // when HasID
	HasID  bool   // "id" is a string
	// Parent says what "parentId" holds, and ParentID the id it names;
	// ParentNamed with an empty ParentID is read as ParentEmpty.
	Parent   ParentValue
	ParentID string
	Ref      string // the value of the type's reference key (EntryType.Ref), when HasRef
	HasRef   bool   // that value is a string
	Label    string // a label entry's label, for Index.Label
	// Parsed is the entry's position among the lines JSON.parse reads, the
	// header's being 0, or -1 when JSON.parse reads no line of it alone: a
	// v1 compaction's firstKeptEntryIndex counts by it (Index.ParsedEntry).
	Parsed int
	// NotNode gives the entry a number but keeps it out of the tree: a
	// header, an object the caller drops. Its id is not kept (Index.ID is
	// "") and names nothing.
	NotNode bool
}

// IndexOptions is what an IndexBuilder knows before the entries.
type IndexOptions struct {
	Version   int    // the session's format version; 0 is CurrentVersion. Below 2, entries form v1's chain with migrated ids
	SessionID string // the header's id, from which v1 ids are made
	// Same, when not nil, says whether two entries with one id (earlier
	// first) are one entry written twice: the later is then no node, and
	// the id keeps naming the earlier one (Duplicate.Repeat). It is called
	// while entries are added, with any entries before later.
	Same func(earlier, later int) bool
}

// IndexBuilder builds an Index from entries a caller gives one by one, in
// file order, through the path BuildIndex's own scan takes. Entries are
// numbered as they are added. The index has no header and cannot decode
// entries: it is the tree and the ids.
type IndexBuilder struct{ ix *Index }

// NewIndexBuilder starts an index of the session named name.
func NewIndexBuilder(name string, opts IndexOptions) *IndexBuilder {
	ix := newIndex(name, nil)
	if opts.Version != 0 {
		ix.Version = opts.Version
	}
	ix.Header.ID = opts.SessionID
	if same := opts.Same; same != nil {
		ix.ids.same = func(earlier, later int32) bool { return same(int(earlier), int(later)) }
	}
	return &IndexBuilder{ix: ix}
}

// Add adds the next entry.
func (b *IndexBuilder) Add(e *EntryFacts) {
	f := lineFacts{valid: true, notNode: e.NotNode,
		node: node{offset: e.Offset, line: uint32(e.Line), typ: e.Type, role: e.Role},
		id:   viewBytes(e.ID), hasID: e.HasID, parent: e.Parent, parentID: viewBytes(e.ParentID),
		ref: viewBytes(e.Ref), hasRef: e.HasRef, label: viewBytes(e.Label)}
	if f.parent == ParentNamed && e.ParentID == "" {
		f.parent = ParentEmpty
	}
	b.ix.addNode(&f, e.Parsed)
}

// Index links the entries added and returns the index; the builder must
// not be used afterwards.
func (b *IndexBuilder) Index() *Index {
	b.ix.link()
	return b.ix
}

// viewBytes returns s's bytes without copying them; the index only reads
// them while an entry is added, and copies what it keeps.
func viewBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
