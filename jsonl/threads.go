package jsonl

import (
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ThreadRow is one row of Pi's threaded /resume list: which listing, and
// the tree drawing before its title ("" for a session without a parent in
// the list, "├─ " or "└─ " after the lines of its ancestors for a clone or fork).
type ThreadRow struct {
	Index  int // into the listings given to Threads
	Prefix string
}

// thread is a node of the tree Threads builds.
type thread struct {
	index    int
	modified int64 // unix milliseconds
	latest   int64 // the newest modified in the subtree
	parent   *thread
	children []*thread
}

// Threads orders listings as Pi 1.6.0's /resume threaded view does
// (buildSessionTree and flattenSessionTree in its session selector): a
// session whose header's parentSession names a listed session's file goes
// under it; siblings and roots are sorted by the newest activity in their
// subtree, newest first, ties in the order given; children are indented by
// "│  " or "   " per ancestor below the root, then "├─ ", or "└─ " for the last.
func Threads(listings []*Listing) []ThreadRow {
	byPath := make(map[string]*thread, len(listings))
	nodes := make([]*thread, len(listings))
	for i, l := range listings {
		nodes[i] = &thread{index: i, modified: unixMillis(l.Modified)}
		byPath[PathKey(l.Path)] = nodes[i]
	}
	var roots []*thread
	for i, l := range listings {
		parent, ok := byPath[PathKey(l.ParentSessionPath)]
		if l.ParentSessionPath != "" && ok && !parent.within(nodes[i]) {
			nodes[i].parent = parent
			parent.children = append(parent.children, nodes[i])
		} else {
			roots = append(roots, nodes[i])
		}
	}
	for _, r := range roots {
		r.updateLatest()
	}
	sortThreads(roots)
	rows := make([]ThreadRow, 0, len(listings))
	for i, r := range roots {
		rows = r.flatten(rows, 0, nil, i == len(roots)-1)
	}
	return rows
}

// within reports whether t is n or lies under n. Sessions that name each
// other as parents (or one itself) would make a loop, which Pi's tree drops
// from the list altogether; Threads lists the one that closes it as a root.
func (t *thread) within(n *thread) bool {
	for ; t != nil; t = t.parent {
		if t == n {
			return true
		}
	}
	return false
}

// updateLatest sets latest for t's subtree and returns it.
func (t *thread) updateLatest() int64 {
	t.latest = t.modified
	for _, c := range t.children {
		t.latest = max(t.latest, c.updateLatest())
	}
	return t.latest
}

func sortThreads(nodes []*thread) {
	slices.SortStableFunc(nodes, func(a, b *thread) int {
		switch {
		case a.latest > b.latest:
			return -1
		case a.latest < b.latest:
			return 1
		}
		return 0
	})
	for _, n := range nodes {
		sortThreads(n.children)
	}
}

// flatten appends t and its subtree in display order.
func (t *thread) flatten(rows []ThreadRow, depth int, continues []bool, last bool) []ThreadRow {
	rows = append(rows, ThreadRow{Index: t.index, Prefix: treePrefix(depth, continues, last)})
	for i, c := range t.children {
		more := depth > 0 && !last // Pi draws no line down from a root
		rows = c.flatten(rows, depth+1, append(slices.Clip(continues), more), i == len(t.children)-1)
	}
	return rows
}

func treePrefix(depth int, continues []bool, last bool) string {
	if depth == 0 {
		return ""
	}
	var b strings.Builder
	for _, more := range continues {
		if more {
			b.WriteString("│  ")
		} else {
			b.WriteString("   ")
		}
	}
	if last {
		b.WriteString("└─ ")
	} else {
		b.WriteString("├─ ")
	}
	return b.String()
}

// PathKey is Pi's comparison key of a session path (a header's
// parentSession against a file's path): the absolute path with its symbolic
// links resolved, or without resolving them when that fails.
func PathKey(path string) string {
	if path == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

func unixMillis(iso string) int64 {
	t, err := time.Parse(time.RFC3339Nano, iso)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
