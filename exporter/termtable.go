package exporter

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// minColumn is the narrowest a table column is drawn; a table whose
// columns cannot all have it is drawn as a list of rows instead.
const minColumn = 3

// tableCell is a cell's spans and its alignment.
type tableCell struct {
	spans []span
	align east.Alignment
}

// table draws a table with its columns side by side, each as wide as its
// widest cell or as the width allows (a cell then wraps), the header
// ruled off; too narrow for that, as a list of rows.
func (d *termDraw) table(n *east.Table, width int) []string {
	rows := d.tableRows(n)
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil
	}
	sep := d.pick(" | ", " │ ")
	widths := fitColumns(naturalWidths(rows), width-len(sep)*(len(rows[0])-1))
	if widths == nil {
		return d.tableAsList(rows, width)
	}
	var out []string
	for i, row := range rows {
		out = append(out, d.tableRow(row, widths, d.paint(sep, sgrDim))...)
		if i == 0 {
			out = append(out, d.tableRule(widths))
		}
	}
	return out
}

// tableRows are the header's and the rows' cells, each row as many as the
// header has.
func (d *termDraw) tableRows(n *east.Table) [][]tableCell {
	var rows [][]tableCell
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		sgr := ""
		if _, ok := r.(*east.TableHeader); ok {
			sgr = sgrBold
		}
		var row []tableCell
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			if cell, ok := c.(*east.TableCell); ok {
				row = append(row, tableCell{spans: d.inlines(cell, sgr), align: cell.Alignment})
			}
		}
		if len(rows) > 0 {
			row = fillRow(row, len(rows[0]))
		}
		rows = append(rows, row)
	}
	return rows
}

// fillRow cuts or pads row to n cells.
func fillRow(row []tableCell, n int) []tableCell {
	for len(row) < n {
		row = append(row, tableCell{})
	}
	return row[:n]
}

// naturalWidths is each column's widest cell, on one line.
func naturalWidths(rows [][]tableCell) []int {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], spansWidth(c.spans), 1)
		}
	}
	return widths
}

// fitColumns shares avail columns among the widths: a column narrower than
// its share keeps its width, the others share what is left equally. It is
// nil when a column would be narrower than minColumn.
func fitColumns(widths []int, avail int) []int {
	out := make([]int, len(widths))
	settled := make([]bool, len(widths))
	left, open := avail, len(widths)
	for changed := true; changed && open > 0; {
		changed = false
		for i, w := range widths {
			if !settled[i] && w <= left/open {
				out[i], settled[i] = w, true
				left, open, changed = left-w, open-1, true
			}
		}
	}
	for i := range out {
		if !settled[i] {
			out[i] = left / open
			if out[i] < minColumn {
				return nil
			}
		}
	}
	return out
}

// tableRow draws one row: each cell wrapped to its column and aligned, the
// row as many lines as its tallest cell.
func (d *termDraw) tableRow(row []tableCell, widths []int, sep string) []string {
	cells := make([][]string, len(row))
	height := 1
	for i, c := range row {
		cells[i] = d.wrap(c.spans, widths[i])
		height = max(height, len(cells[i]))
	}
	out := make([]string, height)
	for l := range height {
		parts := make([]string, len(row))
		for i, c := range cells {
			text := ""
			if l < len(c) {
				text = c[l]
			}
			parts[i] = align(text, widths[i], row[i].align)
		}
		out[l] = strings.TrimRight(strings.Join(parts, sep), " ")
	}
	return out
}

// align pads text to width as a cell aligns it.
func align(text string, width int, a east.Alignment) string {
	pad := max(0, width-ansi.StringWidth(text))
	switch a {
	case east.AlignRight:
		return strings.Repeat(" ", pad) + text
	case east.AlignCenter:
		return strings.Repeat(" ", pad/2) + text + strings.Repeat(" ", pad-pad/2)
	}
	return text + strings.Repeat(" ", pad)
}

// tableRule is the line under the header.
func (d *termDraw) tableRule(widths []int) string {
	dash, cross := d.pick("-", "─"), d.pick("-|-", "─┼─")
	parts := make([]string, len(widths))
	for i, w := range widths {
		parts[i] = strings.Repeat(dash, w)
	}
	return d.paint(strings.Join(parts, cross), sgrDim)
}

// tableAsList draws each row as its cells under their headers' names, one
// a line, a blank line between rows.
func (d *termDraw) tableAsList(rows [][]tableCell, width int) []string {
	var out []string
	for _, row := range rows[1:] {
		if len(out) > 0 {
			out = append(out, "")
		}
		for i, c := range row {
			head := append(append([]span(nil), rows[0][i].spans...), span{": ", ""})
			out = append(out, d.wrap(append(head, c.spans...), width)...)
		}
	}
	return out
}
