package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/pitool/pitool/jsonl"
)

// Sessions whose entries lack a string id (none at all, or a number) get
// the tree --json of Pi's getTree() built as Pi builds it: a Map from each
// entry's "id" value to a node, so that entries with no id share one key
// (undefined, whose node is the last id-less entry's, placed once per
// id-less entry) and numbers are keys of their own ("id":123 is the parent
// "parentId":123 names, not "123"). JSON.stringify then leaves undefined
// out: no "id", no "leafId", null among children. It is the rare case, so
// every entry is decoded.

// piTreeNeeded reports whether some entry's id is not a string.
func piTreeNeeded(ix *jsonl.Index) bool {
	for i := range ix.Len() {
		if ix.IDless(i) {
			return true
		}
	}
	return false
}

type piNode struct {
	entry    int
	children []*piNode
}

type piEntry struct {
	key, parentKey string // Map keys: "u" undefined, "s:…" a string, "n:…" a number, "v:…" null or a boolean, "o:N" an object
	id, parentID   jsonl.RawMessage
	typ            string
	ms             float64
}

// piKey is the Map key of a raw JSON value, as SameValueZero tells keys.
func piKey(raw jsonl.RawMessage, entry int) string {
	switch {
	case raw == nil:
		return "u"
	case raw[0] == '"':
		s, _ := jsonl.DecodeString(raw)
		return "s:" + s
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		return "n:" + string(jsonl.JSNumbers(raw))
	case raw[0] == '{' || raw[0] == '[':
		return fmt.Sprintf("o:%d", entry) // an object is a key of its own
	}
	return "v:" + string(raw)
}

func writePiTreeJSON(w io.Writer, ix *jsonl.Index) error {
	entries := make([]piEntry, ix.Len())
	nodes := map[string]*piNode{}
	for i := range entries {
		e, err := ix.Decode(i)
		if err != nil {
			return err
		}
		id, pid := e.Obj.Get("id"), e.Obj.Get("parentId")
		ms := math.NaN()
		if t := jsonl.JSTimeMillis(e.Obj.Get("timestamp")); string(t) != "null" {
			fmt.Sscan(string(t), &ms)
		}
		entries[i] = piEntry{key: piKey(id, i), parentKey: piKey(pid, -1-i), id: id, parentID: pid, typ: e.TypeName(), ms: ms}
		nodes[entries[i].key] = &piNode{entry: i}
	}
	var roots []*piNode
	for _, en := range entries {
		node := nodes[en.key]
		if string(en.parentID) == "null" || en.parentKey == en.key {
			roots = append(roots, node)
		} else if parent, ok := nodes[en.parentKey]; ok {
			parent.children = append(parent.children, node)
		} else {
			roots = append(roots, node)
		}
	}
	for _, n := range nodes {
		sort.SliceStable(n.children, func(a, b int) bool {
			return entries[n.children[a].entry].ms-entries[n.children[b].entry].ms < 0 // NaN: not before, as V8's sort takes it
		})
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("{")
	if last := ix.Len() - 1; last >= 0 && entries[last].id != nil {
		bw.WriteString(`"leafId":`)
		bw.Write(jsonl.JSNumbers(jsonl.Canonical(entries[last].id)))
		bw.WriteString(",")
	}
	bw.WriteString(`"rows":[`)
	type frame struct {
		node  *piNode
		depth int
	}
	var stack []frame
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, frame{roots[k], 0})
	}
	sep := ""
	for rows := 0; len(stack) > 0; rows++ {
		if rows > ix.Len()*ix.Len()+ix.Len() {
			return fmt.Errorf("%s: the tree Pi builds of these ids loops (Pi runs out of memory)", ix.Name)
		}
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		en := entries[f.node.entry]
		bw.WriteString(sep + "{")
		sep = ","
		if en.id != nil {
			bw.WriteString(`"id":`)
			bw.Write(jsonl.JSNumbers(jsonl.Canonical(en.id)))
			bw.WriteString(",")
		}
		if en.parentID != nil {
			bw.WriteString(`"parentId":`)
			bw.Write(jsonl.JSNumbers(jsonl.Canonical(en.parentID)))
			bw.WriteString(",")
		}
		label := "null"
		if l, ok := ix.Label(f.node.entry); ok && en.id != nil {
			le, err := ix.Decode(l)
			if err != nil {
				return err
			}
			label = string(jsonl.Canonical(le.Obj.Get("label")))
		}
		fmt.Fprintf(bw, `"type":%s,"depth":%d,"label":%s,"children":[`, jsonl.QuoteString(en.typ), f.depth, label)
		for k, c := range f.node.children {
			if k > 0 {
				bw.WriteString(",")
			}
			if cid := entries[c.entry].id; cid != nil {
				bw.Write(jsonl.JSNumbers(jsonl.Canonical(cid)))
			} else {
				bw.WriteString("null")
			}
		}
		bw.WriteString("]}")
		for k := len(f.node.children) - 1; k >= 0; k-- {
			stack = append(stack, frame{f.node.children[k], f.depth + 1})
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
