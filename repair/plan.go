package repair

import (
	"crypto/sha256"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/pitool/pitool/jsonl"
)

// Fix is one change repair makes (or, with DryRun, would make).
type Fix struct {
	Code    string `json:"code"` // the finding code it fixes
	Line    int    `json:"line"` // input line, 0 for the whole file
	Message string `json:"message"`
}

// dropKind says what happens to an object that is not written as an entry.
type dropKind uint8

const (
	keep       dropKind = iota
	dropRepeat          // a byte-for-byte repeat: its first copy is kept
	dropQuarantine
	dropMoved // the header, written at the top instead
)

// change is what repair does to one object of the input.
type change struct {
	drop   dropKind
	set    jsonl.Object // fields to set (raw values)
	tool   string       // a toolResult's corrected toolName, "" to keep it
	before [][]byte     // lines inserted before it
	after  [][]byte     // lines inserted after it
}

// plan is the rewrite: per input line keep (copied as bytes), or rewrite its
// objects (keep, drop, quarantine, re-encode with some fields set), plus
// inserted lines. Lines that are not visited are copied byte for byte.
type plan struct {
	a        *analysed
	ra       io.ReaderAt
	opts     Options
	header   []byte // a header line written first, nil for none
	changes  map[int]*change
	newID    []string
	parent   []int // new parent entry, noParent for a root
	removed  []bool
	ref      []string     // each entry's targetId, fromId or firstKeptEntryId after renames
	relinked *jsonl.Index // the tree of newID, parent and ref, over m.entries (planPaths)
	migrate  bool         // rename hookMessage roles (v1 and v2 files)
	visit    []lineRec
	fixes    []Fix
	quarant  bool
	tail     [][]byte // lines appended after the input (planRequest)
	taken    map[string]bool
	idSource string
}

func (pl *plan) fix(code string, line int, format string, args ...any) {
	pl.fixes = append(pl.fixes, Fix{Code: code, Line: line, Message: fmt.Sprintf(format, args...)})
}

func (pl *plan) ch(i int) *change {
	c := pl.changes[i]
	if c == nil {
		c = &change{}
		pl.changes[i] = c
	}
	return c
}

func (pl *plan) set(i int, key string, val []byte) { c := pl.ch(i); c.set.Set(key, val) }

// makePlan decides every change from the validated model.
func makePlan(a *analysed, ra io.ReaderAt, name string, opts Options) (*plan, error) {
	n := a.m.n
	pl := &plan{a: a, ra: ra, opts: opts, changes: map[int]*change{}, newID: make([]string, n),
		parent: make([]int, n), removed: make([]bool, n), ref: make([]string, n), taken: map[string]bool{}}
	for i := range n {
		id, err := a.m.rawID(i)
		if err != nil {
			return nil, err
		}
		pl.taken[id] = true
		pl.ref[i] = a.m.refs[i]
		pl.removed[i] = a.m.isHeader(i)
	}
	if err := pl.planHeader(name); err != nil {
		return nil, err
	}
	if a.s.version < 2 {
		pl.planV1()
	} else {
		pl.planLinks()
	}
	if err := pl.planPaths(); err != nil {
		return nil, err
	}
	if a.m.readErr != nil {
		return nil, a.m.readErr
	}
	if err := pl.planLines(); err != nil {
		return nil, err
	}
	pl.lineFixes()
	if err := pl.planRequest(); err != nil {
		return nil, err
	}
	return pl, nil
}

// freshID returns a new id, made as Pi's generateId makes one, that no entry
// uses. Its random bytes come from the file and the position, so a repair can
// be reproduced.
func (pl *plan) freshID(line int) string {
	seed := &hashStream{seed: pl.idSource + "/repair/" + strconv.Itoa(line) + "/"}
	id := jsonl.GenerateID(seed, func(id string) bool { return pl.taken[id] })
	pl.taken[id] = true
	return id
}

// hashStream stands in for crypto/rand where a repair must be reproducible:
// its k-th block of 16 bytes is the start of SHA-256(seed + k).
type hashStream struct {
	seed string
	k    int
	buf  []byte
}

func (h *hashStream) Read(p []byte) (int, error) {
	if len(h.buf) == 0 {
		sum := sha256.Sum256([]byte(h.seed + strconv.Itoa(h.k)))
		h.k++
		h.buf = sum[:16]
	}
	n := copy(p, h.buf)
	h.buf = h.buf[n:]
	return n, nil
}

// planLinks gives every entry a unique id and a parent written before it.
// A parentId resolves to the latest earlier entry with that id; one that
// names nothing earlier (missing, written later, a cycle) is re-attached to
// the nearest earlier surviving entry with a non-empty id, so the
// conversation stays one path.
func (pl *plan) planLinks() {
	m := pl.a.m
	cyc := cycleMembers(pl.a.s.ix)
	prev := noParent
	for i := range m.n {
		if m.isHeader(i) {
			continue
		}
		e := m.at(i)
		if !pl.assignID(i, &e) {
			continue
		}
		pl.linkParent(i, &e, prev, cyc)
		if pl.newID[i] != "" { // a parentId "" is a root in Pi: such an entry can be no parent
			prev = i
		}
	}
	pl.resolveRefs()
}

// assignID keeps, renews or drops (a byte-for-byte repeat) entry i's id.
func (pl *plan) assignID(i int, e *entry) bool {
	ix := pl.a.s.ix
	d, seen := ix.DuplicateOf(i)
	switch {
	case !e.hasID:
		pl.newID[i] = pl.freshID(e.line)
		pl.set(i, "id", jsonl.QuoteString(pl.newID[i]))
		pl.fix("ids.missing", e.line, "gave the %s entry without an id the id %s", typeLabel(e), pl.newID[i])
	case seen && d.Repeat:
		pl.ch(i).drop, pl.removed[i] = dropRepeat, true
		pl.fix("ids.duplicate-identical", e.line, "dropped entry %s, a byte-for-byte repeat of line %d", ix.ID(i), ix.LineNum(d.Earlier))
		return false
	case seen:
		pl.newID[i] = pl.freshID(e.line)
		pl.set(i, "id", jsonl.QuoteString(pl.newID[i]))
		id := ix.ID(i)
		pl.fix("ids.duplicate-conflict", e.line, "renamed entry %s to %s (line %d has the id too); later entries that name %s now name %s", id, pl.newID[i], ix.LineNum(d.Earlier), id, pl.newID[i])
	default:
		pl.newID[i] = ix.ID(i)
	}
	return true
}

// linkParent gives entry i the latest earlier entry its parentId names as
// its parent, or, when there is none, prev.
func (pl *plan) linkParent(i int, e *entry, prev int, cyc map[int]bool) {
	ix := pl.a.s.ix
	pl.parent[i] = noParent
	if ix.ParentValue(i) == jsonl.NoParentValue {
		return
	}
	named := ix.Parent(i)
	if named != jsonl.None {
		if j, ok := ix.LatestBefore(named, i); ok {
			pl.parent[i] = j
			if pl.newID[j] != ix.ID(j) {
				pl.set(i, "parentId", jsonl.QuoteString(pl.newID[j]))
			}
			return
		}
	}
	pl.parent[i] = prev
	code := "parents.dangling"
	if named != jsonl.None {
		code = "parents.after-child"
	}
	if cyc[i] {
		code = "parents.cycle"
	}
	to := "made it a root"
	val := []byte("null")
	if prev >= 0 {
		to = fmt.Sprintf("attached it to %s (line %d), the entry before it", pl.newID[prev], ix.LineNum(prev))
		val = jsonl.QuoteString(pl.newID[prev])
	}
	pl.set(i, "parentId", val)
	pl.fix(code, e.line, "entry %s named parent %s, which is not written before it; %s", pl.newID[i], clip([]byte(parentName(ix, i))), to)
}

func cycleMembers(ix *jsonl.Index) map[int]bool {
	out := map[int]bool{}
	cycles := ix.Cycles()
	for k := range cycles.Len() {
		for _, i := range cycles.At(k) {
			out[i] = true
		}
	}
	return out
}

// resolveRefs points targetId, fromId and firstKeptEntryId at the renamed
// entry when the id they name was renamed (the latest earlier entry wins).
func (pl *plan) resolveRefs() {
	ix := pl.a.s.ix
	for i := range pl.a.m.n {
		if pl.removed[i] {
			continue
		}
		named, ok := ix.Ref(i)
		if !ok {
			continue
		}
		if j, ok := ix.LatestBefore(named, i); ok && pl.newID[j] != ix.ID(j) {
			pl.ref[i] = pl.newID[j]
			pl.set(i, ix.Type(i).Ref().String(), jsonl.QuoteString(pl.newID[j]))
		}
	}
}

// planV1 migrates a v1 file: the ids validate derived, one chain, and
// firstKeptEntryIndex replaced by firstKeptEntryId.
func (pl *plan) planV1() {
	ix := pl.a.s.ix
	prev := noParent
	for i := range pl.a.m.n {
		if pl.removed[i] {
			continue
		}
		pl.newID[i], pl.parent[i] = ix.ID(i), prev
		parent := []byte("null")
		if prev >= 0 {
			parent = jsonl.QuoteString(ix.ID(prev))
		}
		pl.set(i, "id", jsonl.QuoteString(ix.ID(i)))
		pl.set(i, "parentId", parent)
		pl.planV1Kept(i)
		prev = i
	}
}

func (pl *plan) planV1Kept(i int) {
	e := pl.a.m.at(i)
	if e.typ != jsonl.TypeCompaction || e.keptIdx < 0 {
		return
	}
	if k, ok := pl.a.s.keptOf(pl.a.m)(i); ok {
		pl.ref[i] = pl.newID[k]
		pl.set(i, jsonl.RefFirstKept.String(), jsonl.QuoteString(pl.newID[k]))
	}
	pl.set(i, "firstKeptEntryIndex", nil)
}

// planLines lists the lines to rewrite, in order: lines that are not clean,
// and lines holding an object that changes.
func (pl *plan) planLines() error {
	m := pl.a.m
	seen := map[int]bool{}
	for _, l := range m.dirty {
		seen[l.num] = true
		pl.visit = append(pl.visit, l)
		pl.quarant = pl.quarant || l.junk
	}
	for i, c := range pl.changes {
		pl.quarant = pl.quarant || c.drop == dropQuarantine
		if num := m.ix.LineNum(i); !seen[num] {
			seen[num] = true
			l, _, err := m.lineOf(i)
			if err != nil {
				return err
			}
			pl.visit = append(pl.visit, l)
		}
	}
	sort.Slice(pl.visit, func(i, j int) bool { return pl.visit[i].num < pl.visit[j].num })
	return nil
}

// changed reports whether the output differs from the input.
func (pl *plan) changed() bool {
	return pl.header != nil || len(pl.visit) > 0 || pl.a.m.torn || len(pl.tail) > 0
}

// lineFixMessages says what repair does about each kind of damaged line.
var lineFixMessages = map[string]string{
	"line.bom":          "removed the byte-order mark",
	"line.crlf":         "turned the CRLF line endings into LF",
	"line.nul":          "removed the NUL bytes",
	"line.invalid-utf8": "replaced the invalid UTF-8 with U+FFFD, as Pi reads it",
	"line.blank":        "dropped",
	"line.unterminated": "added the missing final newline",
	"line.joined":       "split the joined entries onto lines of their own",
	"line.truncated":    "moved the torn entry to the quarantine",
	"line.invalid-json": "moved the invalid JSON to the quarantine",
	"line.garbage":      "moved the garbage to the quarantine",
	"line.not-object":   "moved the line to the quarantine",
}

// lineFixes reports the fixes of damaged lines, which the writer applies as
// it rewrites them.
func (pl *plan) lineFixes() {
	var out []Fix
	for _, f := range pl.a.report.Findings {
		if msg, ok := lineFixMessages[f.Code]; ok {
			if pl.a.m.torn && f.Code == "line.truncated" && f.Offset == pl.a.m.bytes {
				msg = "wrote the lines the stream yields as a complete file"
			}
			out = append(out, Fix{Code: f.Code, Line: f.Line, Message: msg + " (" + f.Message + ")"})
		}
	}
	pl.fixes = append(out, pl.fixes...)
}
