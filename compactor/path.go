package compactor

import (
	"github.com/pitool/pitool/jsonl"
)

// pathFacts is what the rules read of the path itself, besides its
// projection: each entry's type and id, asked of the index when a rule needs
// them rather than copied per entry (issue 16).
type pathFacts interface {
	Len() int
	Type(k int) jsonl.EntryType
	ID(k int) string
}

// indexPath is a path as entry numbers into its index (4 bytes each, as
// jsonl's Selection keeps them).
type indexPath struct {
	ix      *jsonl.Index
	entries []int32
}

func (p indexPath) Len() int                   { return len(p.entries) }
func (p indexPath) Type(k int) jsonl.EntryType { return p.ix.Type(int(p.entries[k])) }
func (p indexPath) ID(k int) string            { return p.ix.ID(int(p.entries[k])) }

// decodedPath is a path of decoded entries.
type decodedPath []*jsonl.Entry

func (p decodedPath) Len() int                   { return len(p) }
func (p decodedPath) Type(k int) jsonl.EntryType { return p[k].Type }
func (p decodedPath) ID(k int) string            { return p[k].ID }
