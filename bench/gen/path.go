package gen

// kind classifies an entry on the current path by what later entries may do with it.
type kind uint8

const (
	kindOther      kind = iota // settings, labels, usage, custom: no model content
	kindSystem                 // the system message
	kindUser                   // a user message: a compaction may keep from here
	kindToolUse                // an assistant message waiting for tool results
	kindToolResult             // a tool result
	kindFinal                  // an assistant message that ends a turn
	kindBash                   // a bashExecution message
	kindCustomMsg              // a custom_message entry
	kindCompaction             // a compaction entry
	kindSummary                // a branch_summary entry
)

// turnBoundary reports whether a new turn may start right after an entry of kind k without
// leaving a tool call unanswered on the path.
func (k kind) turnBoundary() bool {
	return k != kindUser && k != kindToolUse && k != kindToolResult
}

// node is one entry of the current path. Bytes is the size of the path up to and including it.
type node struct {
	id    string
	kind  kind
	bytes int64
}

// path is the active branch from the root to the leaf. It grows as entries are appended and is
// cut back when the session branches, so memory follows the path, not the file.
type path struct {
	nodes       []node
	compactions []int // indexes of the compactions on the path, oldest first
}

// push appends an entry of size n to the path.
func (p *path) push(id string, k kind, n int64) {
	if k == kindCompaction {
		p.compactions = append(p.compactions, len(p.nodes))
	}
	p.nodes = append(p.nodes, node{id: id, kind: k, bytes: p.bytesTo(len(p.nodes)-1) + n})
}

// bytesTo returns the path size up to and including index i (0 when i < 0).
func (p *path) bytesTo(i int) int64 {
	if i < 0 {
		return 0
	}
	return p.nodes[i].bytes
}

// leafID returns the id of the last entry, or nil for an empty path.
func (p *path) leafID() *string {
	if len(p.nodes) == 0 {
		return nil
	}
	id := p.nodes[len(p.nodes)-1].id
	return &id
}

// truncate makes the entry at index i the leaf.
func (p *path) truncate(i int) {
	p.nodes = p.nodes[:i+1]
	for len(p.compactions) > 0 && p.compactions[len(p.compactions)-1] > i {
		p.compactions = p.compactions[:len(p.compactions)-1]
	}
}

// lastCompaction returns the index of the latest compaction on the path, or -1.
func (p *path) lastCompaction() int {
	if len(p.compactions) == 0 {
		return -1
	}
	return p.compactions[len(p.compactions)-1]
}

// recent returns the indexes of entries of kind k among the last n entries after from, newest
// first.
func (p *path) recent(k kind, from, n int) []int {
	var out []int
	for i := len(p.nodes) - 1; i > from && i >= len(p.nodes)-n; i-- {
		if p.nodes[i].kind == k {
			out = append(out, i)
		}
	}
	return out
}
