package repair

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// FuzzIndexMatchesValidate: jsonl.Index and validate's model read the same
// file the same way. They must take the same lines as entries, and give
// each the same type, id and parentId.
//
// The property is restricted to what both mean by an entry, Pi's view:
//   - validate's model also holds the objects of lines Pi drops, which
//     repair will split or clean: joined entries, and objects on a line with
//     junk or NULs. Those are left out, as are headers, which neither counts
//     as an entry. A line with invalid UTF-8 but one clean object is kept:
//     Pi reads the bytes as U+FFFD and loads it, and so do both.
//   - ids are compared as written for v2 and v3. v1 ids are generated, and
//     validate numbers the objects of dropped lines too; and when the first
//     header is on a dropped line, the index reads a file with no header
//     (v3) where validate reads that header's version. So generated ids,
//     v1 parents and the version are compared only when no object was
//     dropped.
//   - parentId is compared by name: the index's resolved parent's id, or the
//     name it could not resolve, against the string validate read ("" for
//     null, absent or not a string). How each then links a non-string or ""
//     parent is the trees' business, not this property's.
func FuzzIndexMatchesValidate(f *testing.F) {
	agreeSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ix := indexOf(in)
		if ix == nil {
			return
		}
		_, a, err := validate(context.Background(), bytes.NewReader(in), nil, "fuzz.jsonl", 0, ValidateOptions{MaxPerCode: -1, forRepair: true})
		if err != nil {
			t.Fatalf("validate: %v", err)
		}
		a.m.ra = bytes.NewReader(in) // validateFacts reads the ids as written back
		checkAgree(t, ix, a)
	})
}

// indexOf indexes in, a plain session's bytes; nil when the index refuses
// them (not a session) or they look compressed, which validate never reads.
func indexOf(in []byte) *jsonl.Index {
	src, err := jsonl.Open("-", bytes.NewReader(in))
	if err != nil {
		return nil
	}
	defer src.Close()
	if src.Compression != jsonl.Plain {
		return nil
	}
	ix, err := jsonl.BuildIndex(src)
	if err != nil {
		return nil
	}
	return ix
}

// agreeFacts is what both must say of one entry.
type agreeFacts struct {
	line         int
	typ          jsonl.EntryType
	id, parentID string
}

// checkAgree compares the index's entries with validate's, entry by entry.
func checkAgree(t *testing.T, ix *jsonl.Index, a *analysed) {
	t.Helper()
	loaded := loadedEntries(a)
	got, want := indexFacts(ix), validateFacts(a, loaded)
	if len(got) != len(want) {
		t.Fatalf("index takes %d entries %v, validate %d %v", len(got), got, len(want), want)
	}
	withIDs := !droppedObjects(a.m, loaded)
	if withIDs && ix.Version < 2 != (a.s.version < 2) {
		t.Fatalf("index reads version %d, validate %d", ix.Version, a.s.version)
	}
	withIDs = withIDs || ix.Version >= 2 && a.s.version >= 2
	for k := range got {
		g, w := got[k], want[k]
		if !withIDs {
			g.id, g.parentID, w.id, w.parentID = "", "", "", ""
		}
		if g != w {
			t.Fatalf("entry %d: index says %+v, validate %+v", k, g, w)
		}
	}
}

// indexFacts lists the index's entries.
func indexFacts(ix *jsonl.Index) []agreeFacts {
	out := make([]agreeFacts, ix.Len())
	for i := range out {
		pid, _ := ix.DanglingParent(i)
		if p := ix.Parent(i); p != jsonl.None {
			pid = ix.ID(p)
		}
		out[i] = agreeFacts{line: ix.LineNum(i), typ: ix.Type(i), id: ix.ID(i), parentID: pid}
	}
	return out
}

// validateFacts lists validate's entries that Pi loads (see the fuzz
// target's doc): ids as written for v2 and v3, the generated ones for v1.
func validateFacts(a *analysed, loaded []bool) []agreeFacts {
	var out []agreeFacts
	for i := range a.m.n {
		e := a.m.at(i)
		if e.header || !loaded[i] {
			continue
		}
		f := agreeFacts{line: e.line, typ: e.typ}
		// The ids as written, read again from the line.
		an, seg, err := a.m.segmentOf(i)
		if err != nil {
			panic(err)
		}
		fields := &an.segs[seg].f
		f.id, _ = jsonl.DecodeString(fields.ID)
		if pv, pid := jsonl.ParentValueOf(fields.ParentID); pv == jsonl.ParentNamed || pv == jsonl.ParentEmpty {
			f.parentID = pid
		}
		if a.s.version < 2 {
			f.id, f.parentID = a.s.ix.ID(i), ""
			if p := a.s.ix.Parent(i); p >= 0 {
				f.parentID = a.s.ix.ID(p)
			}
		}
		out = append(out, f)
	}
	return out
}

// loadedEntries says of each of validate's objects whether Pi loads it: it
// is the only object of its line, and the line has no junk and no NUL.
func loadedEntries(a *analysed) []bool {
	objects, bad := map[int]int{}, map[int]bool{}
	for i := range a.m.n {
		objects[a.m.ix.LineNum(i)]++
	}
	for _, r := range a.m.dirty {
		bad[r.num] = bad[r.num] || r.junk
	}
	for _, f := range a.report.Findings {
		bad[f.Line] = bad[f.Line] || f.Code == "line.nul"
	}
	loaded := make([]bool, a.m.n)
	for i := range a.m.n {
		line := a.m.ix.LineNum(i)
		loaded[i] = objects[line] == 1 && !bad[line]
	}
	return loaded
}

// droppedObjects reports whether validate holds an object (an entry or a
// header) of a line Pi drops.
func droppedObjects(m *model, loaded []bool) bool {
	for i := range m.n {
		if !loaded[i] {
			return true
		}
	}
	return false
}

// agreeSeeds adds the head of every corpus session (its first short lines,
// so the fuzzer mutates small inputs), and each of them
// downgraded to v1 and v2, joined, with a NUL, and with a BOM.
func agreeSeeds(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		head := shortLines(b, 12)
		f.Add(head)
		f.Add(bytes.Replace(head, []byte(`"version":3,`), nil, 1))
		f.Add(bytes.Replace(head, []byte(`"version":3`), []byte(`"version":2`), 1))
		f.Add(bytes.Replace(head, []byte("}\n{"), []byte("}{"), 1))
		f.Add(bytes.Replace(head, []byte(`","`), []byte("\",\x00\""), 1))
		f.Add(append([]byte{0xEF, 0xBB, 0xBF}, head...))
	}
}

// shortLines returns the first n lines of b shorter than 2 KB (the header
// is always kept).
func shortLines(b []byte, n int) []byte {
	var out []byte
	for k, l := range bytes.SplitAfter(b, []byte("\n")) {
		if n > 0 && (k == 0 || len(l) < 2048) {
			out, n = append(out, l...), n-1
		}
	}
	return out
}

// FuzzRequestIndexMatchesRescan: the index validate's one scan builds for
// the request check (jsonl.LoadIndexer, with the skeletons it keeps from the
// model's reads) gives the problems of every leaf an index of a second scan
// of the same bytes (jsonl.IndexReaderAt, the earlier way) gives.
func FuzzRequestIndexMatchesRescan(f *testing.F) {
	agreeSeeds(f)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "request", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if indexOf(in) == nil {
			return // not a plain session
		}
		_, a, err := validate(context.Background(), bytes.NewReader(in), bytes.NewReader(in), "fuzz.jsonl", int64(len(in)), ValidateOptions{MaxPerCode: -1, forRepair: true})
		if err != nil {
			t.Fatalf("validate: %v", err)
		}
		rescan, err := jsonl.IndexReaderAt("fuzz.jsonl", bytes.NewReader(in))
		if err != nil {
			t.Fatalf("IndexReaderAt: %v", err)
		}
		if got, want := requestProblems(a.requestIx), requestProblems(rescan); !reflect.DeepEqual(got, want) {
			t.Fatalf("one scan's index: %+v\na second scan's: %+v", got, want)
		}
	})
}
