package repair

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// structure is what validate learns about the file as a whole: its header,
// its version, and the entry tree as Pi sees it.
type structure struct {
	header      int // the first header's entry index, -1 when there is none
	version     int // 1, 2 or 3; 3 when unknown or missing
	firstEntry  int // the first entry that is not a header, -1 when none
	headerFirst bool
	// ix is the tree of every object of the model (model.ix: its entry i is
	// object i), those of lines Pi drops included: the tree as it will be
	// once repaired. Headers are no nodes, nor are byte-for-byte repeats.
	ix *jsonl.Index
}

// nodes counts the entries of the tree.
func (s *structure) nodes() int {
	n := 0
	for i := range s.ix.Len() {
		if s.ix.IsNode(i) {
			n++
		}
	}
	return n
}

// analyseStructure checks the header, ids, parents and every branch, adding
// findings to fs.
func analyseStructure(m *model, fs *findings) *structure {
	s := &structure{header: -1, firstEntry: -1, version: jsonl.CurrentVersion}
	checkHeaders(m, s, fs)
	s.ix = m.ix
	p := s.ix.Problems()
	checkIDs(m, s, p, fs)
	checkParents(m, s, p, fs)
	checkLinks(m, s, p, fs)
	reportIssues(m, s.ix, checkPaths(m, s.ix, s.keptOf(m)), fs)
	checkRefs(m, s, p, fs)
	return s
}

func checkHeaders(m *model, s *structure, fs *findings) {
	s.firstEntry = firstEntry(m)
	for k, h := range m.headers {
		e := m.at(h.entry)
		switch {
		case k == 0:
			s.header = h.entry
			checkHeader(m, s, &e, h.vraw, fs)
		case m.same(h.entry, s.header):
			fs.add("header.duplicate", e.line, e.off, "a repeat of the session header (a second writer, or a re-flush)")
		default:
			fs.add("header.duplicate", e.line, e.off, "a second session header, for session %q (two files joined?)", e.id)
		}
	}
	if s.header < 0 {
		what := "no session header"
		if m.lines == 0 {
			what = "the file is empty: no session header"
		}
		fs.add("header.missing", 1, 0, "%s; Pi refuses to open the file", what)
	}
}

// firstEntry is the first object that is not a header, -1 when none.
func firstEntry(m *model) int {
	for k, h := range m.headers {
		if h.entry != k {
			return k
		}
	}
	if len(m.headers) < m.n {
		return len(m.headers)
	}
	return -1
}

func checkHeader(m *model, s *structure, e *entry, vraw string, fs *findings) {
	s.headerFirst = s.firstEntry < 0 || s.firstEntry > s.header
	if !s.headerFirst {
		fs.add("header.not-first", e.line, e.off, "the session header comes after an entry (line %d); Pi refuses to open the file", m.ix.LineNum(s.firstEntry))
	}
	if !e.hasID {
		fs.add("header.invalid", e.line, e.off, "the session header has no string id; Pi refuses to open the file")
	}
	s.version = jsonl.SessionVersion([]byte(vraw))
	switch vraw {
	case "", "1", "2", "3":
	default:
		fs.add("header.version-unknown", e.line, e.off, "unknown session format version %s; Pi reads it as v%d", clip([]byte(vraw)), s.version)
		return
	}
	if s.version < jsonl.CurrentVersion {
		fs.add("header.legacy-version", e.line, e.off, "session format v%d; Pi and pitool migrate it to v3 when they load it", s.version)
	}
}

// checkIDs reports entries without an id and ids used twice.
func checkIDs(m *model, s *structure, p *jsonl.Problems, fs *findings) {
	for _, i := range p.NoID {
		e := m.at(i)
		fs.add("ids.missing", e.line, e.off, "%s entry without a string id", textout.Article(typeLabel(&e)))
	}
	for _, d := range p.Duplicates {
		e, j := m.at(d.Entry), d.Earlier
		if d.Repeat {
			// The same entry twice: one node, whichever copy Pi picks.
			fs.add("ids.duplicate-identical", e.line, e.off, "entry %s repeats line %d byte for byte (a re-flush)", s.ix.ID(d.Entry), s.ix.LineNum(j))
			continue
		}
		fs.add("ids.duplicate-conflict", e.line, e.off, "id %s is also used by a different entry on line %d; Pi keeps only this one", s.ix.ID(d.Entry), s.ix.LineNum(j))
	}
}

// checkParents reports parentIds that name no entry.
func checkParents(m *model, s *structure, p *jsonl.Problems, fs *findings) {
	for _, i := range p.BadParents {
		e := m.at(i)
		if s.ix.ParentValue(i) == jsonl.ParentNotString {
			fs.add("parents.dangling", e.line, e.off, "entry %s has a parentId that is not a string", s.ix.ID(i))
			continue
		}
		fs.add("parents.dangling", e.line, e.off, "entry %s names parent %s, which is not in the file; Pi loses everything before it", s.ix.ID(i), parentName(s.ix, i))
	}
}

// parentName is the id entry i's parentId names, "" when it is not a
// non-empty string.
func parentName(ix *jsonl.Index, i int) string {
	if p := ix.Parent(i); p != jsonl.None {
		return ix.ID(p)
	}
	name, _ := ix.DanglingParent(i)
	return name
}

// checkLinks reports parent cycles and parents written after their child.
func checkLinks(m *model, s *structure, p *jsonl.Problems, fs *findings) {
	for k := range p.Cycles.Len() {
		c := p.Cycles.At(k)
		var names []string
		for _, i := range c {
			names = append(names, fmt.Sprintf("%s (line %d)", s.ix.ID(i), s.ix.LineNum(i)))
		}
		first := m.at(c[0])
		fs.add("parents.cycle", first.line, first.off, "parent cycle through %s; Pi never finishes building the context", strings.Join(names, " → "))
	}
	for _, i := range p.ParentAfter {
		e, parent := m.at(i), s.ix.Parent(i)
		fs.add("parents.after-child", e.line, e.off, "entry %s names parent %s, which is written later (line %d)", s.ix.ID(i), s.ix.ID(parent), s.ix.LineNum(parent))
	}
}

// keptOf resolves a compaction's firstKeptEntryId (or a v1 compaction's
// firstKeptEntryIndex) to an entry.
func (s *structure) keptOf(m *model) func(i int) (int, bool) {
	return func(i int) (int, bool) {
		e := m.at(i)
		if s.version < 2 && e.keptIdx >= 0 {
			return s.ix.ParsedEntry(e.keptIdx)
		}
		if !e.hasRef {
			return 0, false
		}
		if e.ref == s.ix.ID(i) {
			return i, true
		}
		return s.ix.Ref(i)
	}
}

func reportIssues(m *model, ix *jsonl.Index, issues []issue, fs *findings) {
	seen := map[[2]int]bool{}
	for _, is := range issues {
		key := [2]int{int(is.kind), is.at}
		if seen[key] {
			continue
		}
		seen[key] = true
		reportIssue(m, ix, is, fs)
	}
}

func reportIssue(m *model, ix *jsonl.Index, is issue, fs *findings) {
	ev, otherv := m.at(is.at), m.at(is.other)
	e, other, id := &ev, &otherv, ix.ID(is.at)
	switch is.kind {
	case issueOrphan:
		fs.add("tools.orphan-result", e.line, e.off, "tool result %s answers call %s, which is not on its branch; providers reject it", id, m.resultText(is.at).id)
	case issueNameMismatch:
		fs.add("tools.name-mismatch", e.line, e.off, "tool result %s names tool %q, but its call (line %d) is to %q", id, m.resultText(is.at).name, other.line, callName(m, is.other, e.callHash))
	case issueUnanswered:
		fs.add("tools.unanswered", e.line, e.off, "%s of assistant message %s never answered before the next turn (line %d)", callList(m, is.at, is.calls), id, other.line)
	case issueUnansweredEnd:
		fs.add("tools.unanswered-at-end", e.line, e.off, "%s of assistant message %s never answered: the branch ends at line %d (the run was interrupted)", callList(m, is.at, is.calls), id, other.line)
	case issueKeptMissing:
		fs.add("compaction.first-kept-missing", e.line, e.off, "compaction %s keeps history from %q, which names no entry; Pi silently keeps nothing before the summary", id, e.ref)
	case issueKeptOffPath:
		fs.add("compaction.first-kept-off-path", e.line, e.off, "compaction %s keeps history from %s (line %d), which is not on its branch; Pi silently keeps nothing before the summary", id, e.ref, other.line)
	case issueEditMissing:
		fs.add("context-edit.target-missing", e.line, e.off, "context_edit %s targets %q, which names no entry", id, e.ref)
	case issueEditOffPath:
		fs.add("context-edit.target-off-path", e.line, e.off, "context_edit %s targets %s (line %d), which is not on its branch", id, e.ref, other.line)
	case issueEditNotEditable:
		fs.add("context-edit.target-not-editable", e.line, e.off, "context_edit %s targets %s entry (line %d), which cannot be edited", id, textout.Article(typeLabel(other)), other.line)
	}
}

// callName is the name of assistant a's call whose id has hash h.
func callName(m *model, a int, h uint64) string {
	calls, _ := m.callsOf(a)
	for k, c := range calls {
		if c.hash == h {
			if texts := m.toolTexts(a); k < len(texts) {
				return texts[k].name
			}
			return ""
		}
	}
	return ""
}

// callList names assistant a's calls idx, for a message.
func callList(m *model, a int, idx []int) string {
	texts := m.toolTexts(a)
	names := make([]string, len(idx))
	for k, i := range idx {
		if i < len(texts) {
			names[k] = texts[i].name + " " + texts[i].id
		}
	}
	if len(idx) == 1 {
		return "tool call " + names[0]
	}
	return fmt.Sprintf("%d tool calls (%s)", len(idx), strings.Join(names, ", "))
}

func typeLabel(e *entry) string {
	if e.typ == jsonl.TypeMessage && e.role != jsonl.NoRole {
		return cmp.Or(e.role.String(), "message") + " message"
	}
	if e.typ == jsonl.TypeUnknown {
		return "untyped"
	}
	return e.typ.String()
}

// checkRefs reports labels and branch summaries that point at no entry.
func checkRefs(m *model, s *structure, p *jsonl.Problems, fs *findings) {
	for _, i := range p.MissingRefs {
		e := m.at(i)
		switch {
		case e.typ == jsonl.TypeLabel:
			fs.add("label.target-missing", e.line, e.off, "label %s targets %q, which names no entry", s.ix.ID(i), e.ref)
		case e.typ == jsonl.TypeBranchSummary && e.ref != "root":
			fs.add("branch-summary.from-missing", e.line, e.off, "branch summary %s comes from %q, which names no entry", s.ix.ID(i), e.ref)
		}
	}
}
