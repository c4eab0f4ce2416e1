package jsonl_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// fuzzLeaves is how many leaves besides the active one the view targets
// check per input.
const fuzzLeaves = 4

// addSessionSeeds adds the small sessions of testdata/request (compactions,
// context edits, tool exchanges, branches) and the handmade ones as seeds.
func addSessionSeeds(f *testing.F) {
	for _, pattern := range []string{"request/*.jsonl", "handmade/*.jsonl"} {
		files, _ := filepath.Glob(filepath.Join(testref.RepoRoot(), "testdata", pattern))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil && len(b) < 16<<10 {
				f.Add(b)
			}
		}
	}
}

// fuzzIndex indexes in as standard input; nil when it is no session.
func fuzzIndex(t *testing.T, in []byte) *jsonl.Index {
	ix, closeFn, err := jsonl.IndexFile(jsonl.StdinName, bytes.NewReader(in))
	if err != nil {
		return nil
	}
	t.Cleanup(func() { closeFn() })
	return ix
}

// fuzzLeafSet is the active leaf and the first fuzzLeaves other leaves.
func fuzzLeafSet(ix *jsonl.Index) []int {
	leaves := []int{ix.ActiveLeaf()}
	for _, l := range ix.Leaves() {
		if len(leaves) > fuzzLeaves {
			break
		}
		if l != ix.ActiveLeaf() {
			leaves = append(leaves, l)
		}
	}
	return leaves
}

// FuzzContextViews: the streamed views (WriteView: entries decoded one at
// a time, plain messages copied as written, the settings read backwards)
// say what the decoded projection says (ProjectLeaf: the whole path decoded,
// the settings replayed forwards), at the active leaf and a few others:
// the context as Context.AppendJSON writes it, the llm view as ConvertToLlm
// of its messages, and the provider view as TransformMessages of those for
// the last assistant's model. Both fail or neither does. The selection is
// the path when it holds no compaction; otherwise the latest compaction,
// then entries before it in path order, then every entry after it.
func FuzzContextViews(f *testing.F) {
	addSessionSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ix := fuzzIndex(t, in)
		if ix == nil || ix.Len() == 0 {
			return
		}
		for _, leaf := range fuzzLeafSet(ix) {
			checkViewsAgree(t, ix, leaf)
			checkSelection(t, ix, leaf)
		}
	})
}

func checkViewsAgree(t *testing.T, ix *jsonl.Index, leaf int) {
	p, perr := ix.ProjectLeaf(leaf)
	var decoded map[jsonl.View][]byte
	if perr == nil {
		llm := jsonl.ConvertToLlm(p.Messages)
		model, _ := jsonl.LastAssistantModel(llm)
		// The streamed views write numbers as Pi sends them (JSNumbers);
		// the projection keeps them as the file has them.
		decoded = map[jsonl.View][]byte{
			jsonl.ViewContext:  jsonl.JSNumbers(p.AppendJSON(nil)),
			jsonl.ViewLLM:      jsonl.JSNumbers(jsonl.AppendObjects(nil, llm)),
			jsonl.ViewProvider: jsonl.JSNumbers(jsonl.AppendObjects(nil, jsonl.TransformMessages(llm, model))),
		}
	}
	for _, view := range []jsonl.View{jsonl.ViewContext, jsonl.ViewLLM, jsonl.ViewProvider} {
		var buf bytes.Buffer
		err := ix.WriteView(&buf, leaf, view)
		if (err == nil) != (perr == nil) {
			t.Fatalf("leaf %d %s: WriteView error %v, ProjectLeaf error %v", leaf, view, err, perr)
		}
		if err == nil && !sameJSON(buf.Bytes(), decoded[view]) {
			t.Fatalf("leaf %d %s:\nstreamed %s\ndecoded  %s", leaf, view, buf.Bytes(), decoded[view])
		}
	}
}

func checkSelection(t *testing.T, ix *jsonl.Index, leaf int) {
	sel, err := ix.Select(leaf)
	if err != nil {
		return
	}
	last := -1
	for k, i := range sel.Path {
		if ix.Type(int(i)) == jsonl.TypeCompaction {
			last = k
		}
	}
	if last < 0 {
		if !slices.Equal(sel.Entries, sel.Path) {
			t.Fatalf("leaf %d: no compaction, but selected %v of the path %v", leaf, sel.Entries, sel.Path)
		}
		return
	}
	after := sel.Path[last+1:]
	kept := sel.Entries[1 : len(sel.Entries)-len(after)]
	if sel.Entries[0] != sel.Path[last] || !slices.Equal(sel.Entries[len(sel.Entries)-len(after):], after) || !isSubsequence(kept, sel.Path[:last]) {
		t.Fatalf("leaf %d: selected %v, not the latest compaction %d, some of %v and all of %v", leaf, sel.Entries, sel.Path[last], sel.Path[:last], after)
	}
}

func isSubsequence(sub, of []int32) bool {
	for _, i := range sub {
		k := slices.Index(of, i)
		if k < 0 {
			return false
		}
		of = of[k+1:]
	}
	return true
}

// sameJSON reports whether a and b are the same JSON value as JSON.parse
// reads it: bytes that are not UTF-8 replaced as Node's decoder does
// (plain messages are copied as written), numbers compared as written.
func sameJSON(a, b []byte) bool {
	va, errA := decodeJSON(a)
	vb, errB := decodeJSON(b)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(jsonl.ToValidUTF8(b)))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// FuzzTreeRows: the tree rows are the tree, checked against Path, the
// index's other reading of it: no entry twice, each row's children are the
// entries whose parent it is, each row sits under its parent one level
// deeper (depth-first), the ancestors above a row are its Path, and every
// entry whose Path ends at a root has a row; a row's Forks are its
// ancestors with more than one child; a row is OnPath when Path of the
// active leaf passes through it. An entry whose Path fails
// (a cycle) has a row only below a root that is its own parent, which Pi's
// tree takes as a root.
func FuzzTreeRows(f *testing.F) {
	addSessionSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ix := fuzzIndex(t, in)
		if ix == nil {
			return
		}
		tree, err := ix.Tree()
		if err != nil {
			return
		}
		children, _ := ix.Children()
		onPath := activePath(ix)
		seen := map[int]bool{}
		var above []int // the rows' ancestors, by depth
		for r := range tree.Rows() {
			if seen[r.Entry] || !ix.IsNode(r.Entry) || r.Depth > len(above) {
				t.Fatalf("row %+v: repeated, no node, or deeper than %d", r, len(above))
			}
			seen[r.Entry] = true
			above = append(above[:r.Depth], r.Entry)
			if r.Depth > 0 && ix.Parent(r.Entry) != above[r.Depth-1] {
				t.Fatalf("row %+v sits under %d, its parent is %d", r, above[r.Depth-1], ix.Parent(r.Entry))
			}
			if want := forks(children, above[:r.Depth]); r.Forks != want {
				t.Fatalf("row %+v has %d ancestors with more than one child", r, want)
			}
			if want := inTimeOrder(t, ix, children[r.Entry]); !slices.Equal(r.Children, want) {
				t.Fatalf("row %+v: the entry's children, oldest first, are %v", r, want)
			}
			checkRowPath(t, ix, r, above)
			if r.OnPath != onPath[r.Entry] {
				t.Fatalf("row %+v: on the active path %v, Path of the active leaf says %v", r, r.OnPath, onPath[r.Entry])
			}
		}
		for i := range ix.Len() {
			if _, err := ix.Path(i); err == nil && ix.IsNode(i) && !seen[i] {
				t.Fatalf("entry %d has a path to a root but no row", i)
			}
		}
	})
}

func checkRowPath(t *testing.T, ix *jsonl.Index, r jsonl.TreeRow, above []int) {
	path, err := ix.Path(r.Entry)
	if err == nil {
		if !slices.Equal(path, above) {
			t.Fatalf("row %+v under %v, its path is %v", r, above, path)
		}
		return
	}
	if ix.Parent(above[0]) != above[0] {
		t.Fatalf("row %+v: its path fails (%v) under the root %d, which is not its own parent", r, err, above[0])
	}
}

// activePath is the set of entries Path gives for the active leaf: none when
// it fails (a cycle).
func activePath(ix *jsonl.Index) map[int]bool {
	set := map[int]bool{}
	if ix.Len() == 0 {
		return set
	}
	path, _ := ix.Path(ix.ActiveLeaf())
	for _, i := range path {
		set[i] = true
	}
	return set
}

// forks counts the ancestors with more than one child.
func forks(children [][]int32, ancestors []int) int {
	n := 0
	for _, a := range ancestors {
		if len(children[a]) > 1 {
			n++
		}
	}
	return n
}

// inTimeOrder returns the entries (siblings in file order) sorted stably by
// their decoded timestamps, as Pi orders siblings; one that does not parse
// counts as 0.
func inTimeOrder(t *testing.T, ix *jsonl.Index, entries []int32) []int32 {
	ms := map[int32]int64{}
	for _, c := range entries {
		e, err := ix.Decode(int(c))
		if err != nil {
			t.Fatal(err)
		}
		if ts, ok := jsonl.ParseTimestamp(e.Timestamp()); ok {
			ms[c] = ts.UnixMilli()
		}
	}
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b int32) int { return cmp.Compare(ms[a], ms[b]) })
	return sorted
}

// FuzzRequestFix: at the active leaf of any v3 session, the request check
// reports exactly the tool results that pitool's provider view refuses
// (testref.RefusedResults, an independent reading, where it can read the
// view: refereeReads); when it reports any,
// the entries RequestFix returns, appended to the file, leave history
// byte-identical and a request the check finds clean and the view refuses
// nothing of.
func FuzzRequestFix(f *testing.F) {
	addSessionSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ix := fuzzIndex(t, in)
		if ix == nil || ix.Len() == 0 || ix.Version != 3 {
			return
		}
		leaf := ix.ActiveLeaf()
		problems, err := ix.CheckRequest(leaf)
		if err != nil {
			return
		}
		view, ok := providerView(ix, leaf)
		if !ok {
			t.Fatalf("the request check passes, the provider view fails")
		}
		if !refereeReads(view) {
			return
		}
		if refused := testref.RefusedResults(t, view); !slices.Equal(refused, problemCalls(problems)) {
			t.Fatalf("the view refuses results for %v, the check reports %v", refused, problems)
		}
		if len(problems) == 0 || !fixableLeaf(ix, leaf) {
			return
		}
		fixed := slices.Clone(in)
		if fixed[len(fixed)-1] != '\n' {
			fixed = append(fixed, '\n')
		}
		for _, e := range ix.RequestFix(problems, leaf, time.Unix(0, 0), rand.NewChaCha8([32]byte{1})) {
			fixed = append(e.AppendJSON(fixed), '\n')
		}
		fx := fuzzIndex(t, fixed)
		if fx == nil {
			t.Fatalf("the fixed file does not index")
		}
		again, err := fx.CheckRequest(fx.ActiveLeaf())
		if err != nil || len(again) > 0 {
			t.Fatalf("after the fix of %v: %v %v\n%s", problems, again, err, fixed)
		}
		if view, ok := providerView(fx, fx.ActiveLeaf()); !ok || len(testref.RefusedResults(t, view)) > 0 {
			t.Fatalf("after the fix the provider view fails or still refuses results:\n%s", view)
		}
	})
}

// fixableLeaf reports whether appended entries can name leaf as their
// parent: its id is a non-empty string that no later entry has.
func fixableLeaf(ix *jsonl.Index, leaf int) bool {
	id := ix.ID(leaf)
	got, ok := ix.Lookup(id)
	return id != "" && ok && got == leaf
}

// refereeKeys are the keys testref.RefusedResults reads, in messages and in
// their content blocks.
var refereeKeys = []string{"role", "toolCallId", "content", "type", "id"}

// refereeReads reports whether testref.RefusedResults reads view as Pi
// does: encoding/json matches keys without regard to case and stops at a
// value of another type, so a view whose messages or blocks have a key that
// matches one of refereeKeys only so, or a key of theirs with a value that
// is not a string (content: not an array), is out of its reach.
func refereeReads(view []byte) bool {
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(view, &msgs) != nil {
		return false
	}
	for _, m := range msgs {
		if !refereeMember(m) {
			return false
		}
		var blocks []map[string]json.RawMessage
		if c, ok := m["content"]; ok && json.Unmarshal(c, &blocks) == nil {
			for _, b := range blocks {
				if !refereeMember(b) {
					return false
				}
			}
		}
	}
	return true
}

func refereeMember(m map[string]json.RawMessage) bool {
	for key, val := range m {
		for _, want := range refereeKeys {
			switch {
			case !strings.EqualFold(key, want):
			case key != want:
				return false
			case want == "content":
				var arr []json.RawMessage
				var s string
				if json.Unmarshal(val, &arr) != nil && json.Unmarshal(val, &s) != nil {
					return false
				}
			default:
				var s string
				if json.Unmarshal(val, &s) != nil {
					return false
				}
			}
		}
	}
	return true
}

func providerView(ix *jsonl.Index, leaf int) ([]byte, bool) {
	var buf bytes.Buffer
	if err := ix.WriteView(&buf, leaf, jsonl.ViewProvider); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}
