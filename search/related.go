package search

import (
	"github.com/pitool/pitool/jsonl"
)

// relatives groups the files, by their place in files, that share history
// with another file given, as read from the session headers alone: the same
// header id (a plain copy of the file), or a parentSession that names the
// other file or the same parent (a clone or fork, linked as Pi's threads
// link them), followed from file to file. Only the places of index (the
// files of the first pass) are read. A file whose header cannot be read
// shares with none. The groups are of two files or more, each in file
// order, in the order of their first files; a file in none has no copies.
func relatives(files []string, index map[string]int) [][]int {
	g := newGroups(len(files))
	for i, f := range files {
		if j, ok := index[f]; !ok || j != i {
			continue
		}
		h, ok := jsonl.FileHeader(f)
		if !ok {
			continue
		}
		g.link("path\x00"+jsonl.PathKey(f), i)
		if h.ID != "" {
			g.link("id\x00"+h.ID, i)
		}
		if h.ParentSession != "" {
			g.link("path\x00"+jsonl.PathKey(h.ParentSession), i)
		}
	}
	return g.list()
}

// groups joins files into groups (union-find): two files holding the same
// label are in one group.
type groups struct {
	root   []int
	holder map[string]int // label → the first file holding it
}

func newGroups(n int) *groups {
	g := &groups{root: make([]int, n), holder: map[string]int{}}
	for i := range g.root {
		g.root[i] = i
	}
	return g
}

// find is file i's group, the file at its root.
func (g *groups) find(i int) int {
	for g.root[i] != i {
		g.root[i] = g.root[g.root[i]]
		i = g.root[i]
	}
	return i
}

// link notes that file i holds label, joining its group with that of the
// file that holds it already.
func (g *groups) link(label string, i int) {
	if j, ok := g.holder[label]; ok {
		g.root[g.find(i)] = g.find(j)
		return
	}
	g.holder[label] = i
}

// list is the groups of two files or more, each in file order, in the
// order of their first files.
func (g *groups) list() [][]int {
	members := make(map[int][]int, len(g.root))
	var roots []int
	for i := range g.root {
		r := g.find(i)
		if members[r] == nil {
			roots = append(roots, r)
		}
		members[r] = append(members[r], i)
	}
	var out [][]int
	for _, r := range roots {
		if len(members[r]) > 1 {
			out = append(out, members[r])
		}
	}
	return out
}
