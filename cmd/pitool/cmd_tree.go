package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"encoding/json"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func treeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "tree",
		Usage:     "draw the session tree: roles, previews, labels, the active leaf",
		ArgsUsage: "FILE",
		Description: `Draws every entry of the session as Pi's /tree does: branches indent, each row
shows its type or role and a one-line preview, labels appear in [brackets], the
active path is marked with * and the active leaf (where Pi resumes) with <- active.

--json prints {leafId, rows} with the rows of Pi's own session tree: id, parentId,
type, depth, label and children, depth-first, siblings oldest first.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the rows as JSON"},
			&cli.IntFlag{Name: "width", Value: 100, Usage: "clip rows to `N` characters"},
		},
		Action: func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return withLeaf(e, file, "", func(ix *jsonl.Index, leaf int) error {
				rows, err := ix.TreeRows()
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return writeTreeJSON(e, ix, rows)
				}
				return drawTree(e.stdout, ix, rows, c.Int("width"))
			})
		},
	}
}

type treeJSONRow struct {
	ID       string          `json:"id"`
	ParentID json.RawMessage `json:"parentId"`
	Type     string          `json:"type"`
	Depth    int             `json:"depth"`
	Label    *string         `json:"label"`
	Children []string        `json:"children"`
}

func writeTreeJSON(e *env, ix *jsonl.Index, rows []jsonl.TreeRow) error {
	out := struct {
		LeafID *string       `json:"leafId"`
		Rows   []treeJSONRow `json:"rows"`
	}{Rows: make([]treeJSONRow, 0, len(rows))}
	if ix.Len() > 0 {
		id := ix.ID(ix.ActiveLeaf())
		out.LeafID = &id
	}
	for _, r := range rows {
		row, err := jsonTreeRow(ix, r)
		if err != nil {
			return err
		}
		out.Rows = append(out.Rows, row)
	}
	b, err := marshalOutput(out)
	if err != nil {
		return err
	}
	return writeJSONLine(e, b)
}

func jsonTreeRow(ix *jsonl.Index, r jsonl.TreeRow) (treeJSONRow, error) {
	e, err := ix.Decode(r.Entry)
	if err != nil {
		return treeJSONRow{}, err
	}
	row := treeJSONRow{ID: e.ID, ParentID: e.Obj.Get("parentId"), Type: e.TypeName(), Depth: r.Depth, Children: []string{}}
	if row.ParentID == nil {
		row.ParentID = json.RawMessage("null")
	}
	if label, err := ix.LabelText(r.Entry); err != nil {
		return row, err
	} else if label != "" {
		row.Label = &label
	}
	for _, c := range r.Children {
		row.Children = append(row.Children, ix.ID(c))
	}
	return row, nil
}

// drawTree prints the tree for a terminal. Indentation grows only where the
// tree branches, so long linear conversations stay readable.
func drawTree(w io.Writer, ix *jsonl.Index, rows []jsonl.TreeRow, width int) error {
	bw := bufio.NewWriter(w)
	onPath := activePathSet(ix)
	indent := make([]int, ix.Len())
	for _, r := range rows {
		for _, c := range r.Children {
			indent[c] = indent[r.Entry]
			if len(r.Children) > 1 {
				indent[c]++
			}
		}
		line, err := treeLine(ix, r.Entry, indent[r.Entry], onPath[r.Entry])
		if err != nil {
			return err
		}
		fmt.Fprintln(bw, clip(line, width))
	}
	return bw.Flush()
}

func activePathSet(ix *jsonl.Index) map[int]bool {
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

func treeLine(ix *jsonl.Index, i, indent int, active bool) (string, error) {
	e, err := ix.Decode(i)
	if err != nil {
		return "", err
	}
	mark := "  "
	if active {
		mark = "* "
	}
	line := mark + strings.Repeat("│ ", indent) + jsonl.EntryPreview(e)
	if label, err := ix.LabelText(i); err == nil && label != "" {
		line += "  [" + label + "]"
	}
	if i == ix.ActiveLeaf() {
		line += "  <- active"
	}
	return line, nil
}

func clip(s string, width int) string {
	r := []rune(s)
	if width <= 0 || len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}
