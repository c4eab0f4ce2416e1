package repair

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// structure is what validate learns about the file as a whole: its header,
// its version, and the entry tree as Pi sees it.
type structure struct {
	header      int // the first header's entry index, -1 when there is none
	version     int // 1, 2 or 3; 3 when unknown or missing
	firstEntry  int // the first entry that is not a header, -1 when none
	headerFirst bool
	tree        *tree
}

// analyseStructure checks the header, ids, parents and every branch, adding
// findings to fs.
func analyseStructure(m *model, fs *findings) *structure {
	s := &structure{header: -1, firstEntry: -1, version: jsonl.CurrentVersion}
	checkHeaders(m, s, fs)
	s.tree = piTree(m, s, fs)
	checkLinks(s.tree, fs)
	reportIssues(s.tree, checkPaths(s.tree, s.keptOf), fs)
	checkRefs(s.tree, fs)
	return s
}

func checkHeaders(m *model, s *structure, fs *findings) {
	for i := range m.entries {
		e := &m.entries[i]
		switch {
		case !e.header:
			if s.firstEntry < 0 {
				s.firstEntry = i
			}
		case s.header < 0:
			s.header = i
			checkHeader(m, s, e, fs)
		case m.same(i, s.header):
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

func checkHeader(m *model, s *structure, e *entry, fs *findings) {
	s.headerFirst = s.firstEntry < 0
	if !s.headerFirst {
		first := &m.entries[s.firstEntry]
		fs.add("header.not-first", e.line, e.off, "the session header comes after an entry (line %d); Pi refuses to open the file", first.line)
	}
	if !e.hasID {
		fs.add("header.invalid", e.line, e.off, "the session header has no string id; Pi refuses to open the file")
	}
	switch e.vraw {
	case "":
		s.version = 1
	case "1", "2", "3":
		s.version = int(e.vraw[0] - '0')
	default:
		fs.add("header.version-unknown", e.line, e.off, "unknown session format version %s", clip([]byte(e.vraw)))
		return
	}
	if s.version < jsonl.CurrentVersion {
		fs.add("header.legacy-version", e.line, e.off, "session format v%d; Pi and pitool migrate it to v3 when they load it", s.version)
	}
}

// piTree links entries as Pi does: with duplicate ids the later entry wins,
// and v1 entries form one chain with generated ids.
func piTree(m *model, s *structure, fs *findings) *tree {
	n := len(m.entries)
	t := &tree{m: m, ids: make([]string, n), parent: make([]int, n), skip: make([]bool, n), byID: make(map[string]int, n)}
	headerID := ""
	if s.header >= 0 {
		headerID = m.entries[s.header].id
	}
	prev, pos := noParent, 0
	for i := range m.entries {
		e := &m.entries[i]
		if t.skip[i] = e.header; e.header {
			continue
		}
		t.ids[i] = e.id
		if s.version < 2 {
			t.ids[i], t.parent[i] = jsonl.MigratedID(headerID, pos, t.idTaken), prev
			prev, pos = i, pos+1
		} else if noteID(t, i, fs); t.skip[i] {
			continue
		}
		t.byID[t.ids[i]] = i
	}
	if s.version >= 2 {
		linkParents(t, fs)
	}
	return t
}

func noteID(t *tree, i int, fs *findings) {
	e := &t.m.entries[i]
	if !e.hasID {
		fs.add("ids.missing", e.line, e.off, "a %s entry without a string id", typeLabel(e))
		return
	}
	j, seen := t.byID[e.id]
	switch {
	case !seen:
	case t.m.same(i, j):
		// The same entry twice: one node, whichever copy Pi picks.
		t.skip[i] = true
		fs.add("ids.duplicate-identical", e.line, e.off, "entry %s repeats line %d byte for byte (a re-flush)", e.id, t.m.entries[j].line)
	default:
		fs.add("ids.duplicate-conflict", e.line, e.off, "id %s is also used by a different entry on line %d; Pi keeps only this one", e.id, t.m.entries[j].line)
	}
}

func linkParents(t *tree, fs *findings) {
	for i := range t.m.entries {
		e := &t.m.entries[i]
		if t.skip[i] {
			continue
		}
		t.parent[i] = noParent
		switch e.pkind {
		case parentString:
			if p, ok := t.byID[e.parent]; ok {
				t.parent[i] = p
				continue
			}
			t.parent[i] = dangling
			fs.add("parents.dangling", e.line, e.off, "entry %s names parent %s, which is not in the file; Pi loses everything before it", e.id, e.parent)
		case parentOther:
			t.parent[i] = dangling
			fs.add("parents.dangling", e.line, e.off, "entry %s has a parentId that is not a string", e.id)
		}
	}
}

// idTaken reports whether an entry already linked has id.
func (t *tree) idTaken(id string) bool {
	_, taken := t.byID[id]
	return taken
}

// checkLinks reports parent cycles and parents written after their child.
func checkLinks(t *tree, fs *findings) {
	inCycle := make([]bool, len(t.parent))
	for _, c := range t.cycles() {
		var names []string
		for _, i := range c {
			inCycle[i] = true
			names = append(names, fmt.Sprintf("%s (line %d)", t.ids[i], t.m.entries[i].line))
		}
		first := &t.m.entries[c[0]]
		fs.add("parents.cycle", first.line, first.off, "parent cycle through %s; Pi never finishes building the context", strings.Join(names, " → "))
	}
	for i, p := range t.parent {
		if p > i && !inCycle[i] {
			e := &t.m.entries[i]
			fs.add("parents.after-child", e.line, e.off, "entry %s names parent %s, which is written later (line %d)", e.id, e.parent, t.m.entries[p].line)
		}
	}
}

// keptOf resolves a compaction's firstKeptEntryId (or a v1 compaction's
// firstKeptEntryIndex) to an entry.
func (s *structure) keptOf(i int) (int, bool) {
	e := &s.tree.m.entries[i]
	if s.version < 2 && e.keptIdx >= 0 {
		return s.tree.parsedEntry(e.keptIdx)
	}
	if !e.hasRef {
		return 0, false
	}
	if e.ref == s.tree.ids[i] {
		return i, true
	}
	k, ok := s.tree.byID[e.ref]
	return k, ok
}

// parsedEntry finds the entry at a position among the lines Pi parsed.
func (t *tree) parsedEntry(pos int) (int, bool) {
	if t.parsed == nil {
		t.parsed = map[int]int{}
		for i := range t.m.entries {
			if p := t.m.entries[i].parsed; p >= 0 {
				t.parsed[p] = i
			}
		}
	}
	i, ok := t.parsed[pos]
	return i, ok && !t.m.entries[i].header
}

func reportIssues(t *tree, issues []issue, fs *findings) {
	seen := map[[2]int]bool{}
	for _, is := range issues {
		key := [2]int{int(is.kind), is.at}
		if seen[key] {
			continue
		}
		seen[key] = true
		reportIssue(t, is, fs)
	}
}

func reportIssue(t *tree, is issue, fs *findings) {
	e := &t.m.entries[is.at]
	id := t.ids[is.at]
	other := &t.m.entries[is.other]
	switch is.kind {
	case issueOrphan:
		fs.add("tools.orphan-result", e.line, e.off, "tool result %s answers call %s, which is not on its branch; providers reject it", id, e.callID)
	case issueNameMismatch:
		fs.add("tools.name-mismatch", e.line, e.off, "tool result %s names tool %q, but its call (line %d) is to %q", id, e.toolName, other.line, callName(other, e.callID))
	case issueUnanswered:
		fs.add("tools.unanswered", e.line, e.off, "%s of assistant message %s never answered before the next turn (line %d)", callList(e, is.calls), id, other.line)
	case issueUnansweredEnd:
		fs.add("tools.unanswered-at-end", e.line, e.off, "%s of assistant message %s never answered: the branch ends at line %d (the run was interrupted)", callList(e, is.calls), id, other.line)
	case issueKeptMissing:
		fs.add("compaction.first-kept-missing", e.line, e.off, "compaction %s keeps history from %q, which names no entry; Pi silently keeps nothing before the summary", id, e.ref)
	case issueKeptOffPath:
		fs.add("compaction.first-kept-off-path", e.line, e.off, "compaction %s keeps history from %s (line %d), which is not on its branch; Pi silently keeps nothing before the summary", id, e.ref, other.line)
	case issueEditMissing:
		fs.add("context-edit.target-missing", e.line, e.off, "context_edit %s targets %q, which names no entry", id, e.ref)
	case issueEditOffPath:
		fs.add("context-edit.target-off-path", e.line, e.off, "context_edit %s targets %s (line %d), which is not on its branch", id, e.ref, other.line)
	case issueEditNotEditable:
		fs.add("context-edit.target-not-editable", e.line, e.off, "context_edit %s targets a %s entry (line %d), which cannot be edited", id, typeLabel(other), other.line)
	}
}

func callName(a *entry, id string) string {
	for _, c := range a.calls {
		if c.id == id {
			return c.name
		}
	}
	return ""
}

func callList(a *entry, idx []int) string {
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = a.calls[i].name + " " + a.calls[i].id
	}
	if len(idx) == 1 {
		return "tool call " + names[0]
	}
	return fmt.Sprintf("%d tool calls (%s)", len(idx), strings.Join(names, ", "))
}

func typeLabel(e *entry) string {
	if e.typ == jsonl.TypeMessage && e.role != jsonl.NoRole {
		return roleLabel(e.role) + " message"
	}
	if e.typ == jsonl.TypeUnknown {
		return "untyped"
	}
	return e.typ.String()
}

// checkRefs reports labels and branch summaries that point at no entry.
func checkRefs(t *tree, fs *findings) {
	for i := range t.m.entries {
		e := &t.m.entries[i]
		if t.skip[i] {
			continue
		}
		_, ok := t.byID[e.ref]
		switch {
		case e.typ == jsonl.TypeLabel && !ok:
			fs.add("label.target-missing", e.line, e.off, "label %s targets %q, which names no entry", t.ids[i], e.ref)
		case e.typ == jsonl.TypeBranchSummary && !ok && e.ref != "root":
			fs.add("branch-summary.from-missing", e.line, e.off, "branch summary %s comes from %q, which names no entry", t.ids[i], e.ref)
		}
	}
}
