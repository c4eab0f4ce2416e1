package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"strings"

	"encoding/json"
	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// treeOptions are tree's flags.
type treeOptions struct {
	json, ids  bool
	width      int
	widthGiven bool // --width was given: the terminal's width is not used
}

func (o *treeOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print the rows as JSON", Destination: &o.json},
		&cli.IntFlag{Name: "width", Usage: "clip previews so rows fit `N` columns (0: no limit)", DefaultText: "the terminal's width",
			Destination: &o.width, Action: func(*cli.Context, int) error { o.widthGiven = true; return nil }},
		&cli.BoolFlag{Name: "ids", Usage: "show each entry's id", Destination: &o.ids},
	}
}

func (o *treeOptions) validate() error { return nil }

func treeCommand(e *env) *cli.Command {
	opts := &treeOptions{}
	return &cli.Command{
		Name:      "tree",
		Usage:     "draw the session tree: roles, previews, labels, the active leaf",
		ArgsUsage: "FILE",
		Description: `Draws every entry of the session as Pi's /tree does: branches indent, each row
shows its type or role and a one-line preview, labels appear in [brackets], the
active path is marked with * and the active leaf (where Pi resumes) with <- active.
Rows fit the terminal's width ($COLUMNS, else the terminal's; piped output is
not clipped), or --width N: the preview is clipped first, and labels and
markers always show unless they alone are wider.
--ids adds a column of entry ids, which --leaf (context, tokens, clone) and
fork --at take.

--json prints {leafId, rows} with the rows of Pi's own session tree: id, parentId,
type, depth, label and children, depth-first, siblings oldest first.

` + helpReadOneFile,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return withLeaf(e, file, "", func(ix *jsonl.Index, leaf int) error {
				tree, err := ix.Tree()
				if err != nil {
					return err
				}
				if opts.json {
					if piTreeNeeded(ix) {
						return writePiTreeJSON(e.stdout, ix)
					}
					return writeTreeJSON(e.stdout, ix, tree)
				}
				width := opts.width
				if !opts.widthGiven {
					width = textout.Width(e.stdout)
				}
				return drawTree(e.stdout, ix, tree, treeLayout{width: width, ids: opts.ids})
			})
		}),
	}
}

type treeJSONRow struct {
	ID       string          `json:"id"`
	ParentID json.RawMessage `json:"parentId,omitempty"` // absent when the entry has none, as JSON.stringify leaves undefined out
	Type     string          `json:"type"`
	Depth    int             `json:"depth"`
	Label    json.RawMessage `json:"label"` // null when the entry has none
	Children []string        `json:"children"`
}

// writeTreeJSON prints {leafId, rows} on one line, a row at a time: the
// bytes one marshalled object would be, without holding every row.
func writeTreeJSON(w io.Writer, ix *jsonl.Index, tree *jsonl.Tree) error {
	bw := bufio.NewWriter(w)
	var leafID *string
	if ix.Len() > 0 {
		id := ix.ID(ix.ActiveLeaf())
		leafID = &id
	}
	head, err := jsonout.Marshal(leafID)
	if err != nil {
		return err
	}
	bw.WriteString(`{"leafId":`)
	bw.Write(jsonl.ToValidUTF8(head))
	bw.WriteString(`,"rows":[`)
	sep := ""
	for r := range tree.Rows() {
		row, err := jsonTreeRow(ix, r)
		if err != nil {
			return err
		}
		b, err := jsonout.Marshal(row)
		if err != nil {
			return err
		}
		bw.WriteString(sep)
		bw.Write(jsonl.ToValidUTF8(b))
		sep = ","
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

func jsonTreeRow(ix *jsonl.Index, r jsonl.TreeRow) (treeJSONRow, error) {
	e, err := ix.Decode(r.Entry)
	if err != nil {
		return treeJSONRow{}, err
	}
	row := treeJSONRow{ID: e.ID, ParentID: e.Obj.Get("parentId"), Type: e.TypeName(), Depth: r.Depth, Children: []string{}}
	if l, ok := ix.Label(r.Entry); ok {
		le, err := ix.Decode(l)
		if err != nil {
			return row, err
		}
		row.Label = json.RawMessage(jsonl.Canonical(le.Obj.Get("label"))) // as written: a lone surrogate stays one
	}
	for _, c := range r.Children {
		row.Children = append(row.Children, ix.ID(int(c)))
	}
	return row, nil
}

// treeLayout is how drawTree lays rows out.
type treeLayout struct {
	width   int  // clip rows to this many terminal columns; 0: no limit
	ids     bool // an id column after the active-path mark
	idWidth int  // the longest id, set by drawTree
}

// drawTree prints the tree for a terminal. Indentation grows only where the
// tree branches, so long linear conversations stay readable.
func drawTree(w io.Writer, ix *jsonl.Index, tree *jsonl.Tree, lay treeLayout) error {
	bw := bufio.NewWriter(w)
	if lay.ids {
		lay.idWidth = longestID(ix)
	}
	for r := range tree.Rows() {
		line, err := treeLine(ix, r.Entry, r.Forks, r.OnPath, lay)
		if err != nil {
			return err
		}
		fmt.Fprintln(bw, line.fit(lay.width))
	}
	return bw.Flush()
}

// noID stands in the id column for an entry that has none.
const noID = "-"

func longestID(ix *jsonl.Index) int {
	n := len(noID)
	for i := 0; i < ix.Len(); i++ {
		n = max(n, textout.Columns(termtext.Visible(ix.ID(i))))
	}
	return n
}

// treeRow is one drawn row: the preview, which fit may clip, between what it
// never clips: the mark, id and indentation before it, the label and the
// active marker after it.
type treeRow struct{ head, preview, tail string }

// fit clips the row to width columns (0: no limit): the preview first, then
// the indentation, keeping the label and the active marker, which are cut
// only when they alone are wider.
func (r treeRow) fit(width int) string {
	tail := textout.Columns(r.tail)
	switch {
	case width <= 0:
		return r.head + r.preview + r.tail
	case tail >= width:
		return textout.Clip(r.head+r.preview+r.tail, width)
	}
	return textout.Clip(r.head+r.preview, width-tail) + r.tail
}

func treeLine(ix *jsonl.Index, i, indent int, active bool, lay treeLayout) (treeRow, error) {
	e, err := ix.Decode(i)
	if err != nil {
		return treeRow{}, err
	}
	mark := "  "
	if active {
		mark = "* "
	}
	if lay.ids {
		id := termtext.Visible(cmp.Or(e.ID, noID))
		mark += id + strings.Repeat(" ", lay.idWidth-textout.Columns(id)+1)
	}
	row := treeRow{head: mark + strings.Repeat("│ ", indent), preview: termtext.Visible(jsonl.EntryPreview(e))}
	if label, err := ix.LabelText(i); err == nil && label != "" {
		row.tail += "  [" + termtext.Visible(label) + "]"
	}
	if i == ix.ActiveLeaf() {
		row.tail += "  <- active"
	}
	return row, nil
}
