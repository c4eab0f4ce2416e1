package jsonl

// selectMemoBytes bounds what a selectMemo keeps of references and
// replacements; past it, entries are decoded each time, as without one.
const selectMemoBytes = 16 << 20

// selectMemo keeps what selections read of compactions and context edits
// (the reference key of each, and an edit's replacement), so that the request
// check of every leaf, which selects at each leaf twice, decodes such an
// entry once instead of once per leaf whose path holds it: on a branched
// file those reads come out of file order, a system call each, and were
// half of validate.
type selectMemo struct {
	refs  map[int32]memoRef
	bytes int
}

// memoRef is what a selection reads of one entry.
type memoRef struct {
	ref         string
	replacement RawMessage // context edits: their "replacement", detached from the line
}

func newSelectMemo() *selectMemo { return &selectMemo{refs: map[int32]memoRef{}} }

// refOf is entry i's reference key and, for a context edit, its replacement,
// from m when it holds them (m may be nil). The replacement is shared by the
// selections that read it, which only read it.
func (ix *Index) refOf(m *selectMemo, i int) (ref string, replacement RawMessage, err error) {
	if m != nil {
		if r, ok := m.refs[int32(i)]; ok {
			return r.ref, r.replacement, nil
		}
	}
	e, err := ix.Decode(i)
	if err != nil {
		return "", nil, err
	}
	ref = e.Ref()
	if e.Type == TypeContextEdit {
		replacement = detach(e.Obj.Get("replacement"))
	}
	if m != nil && m.bytes+len(ref)+len(replacement) <= selectMemoBytes {
		m.refs[int32(i)] = memoRef{ref: ref, replacement: replacement}
		m.bytes += len(ref) + len(replacement)
	}
	return ref, replacement, nil
}
