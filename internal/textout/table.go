package textout

import (
	"cmp"
	"io"
	"strings"

	"github.com/pitool/pitool/internal/termtext"
)

// Shrink is how a column gives up room when a table is wider than the
// terminal.
type Shrink int

const (
	// Fixed never narrows the column: counts, dates, statuses.
	Fixed Shrink = iota
	// Clipped keeps the start of each cell and ends it with "…": titles, notes.
	Clipped
	// Tailed keeps the end of each cell after a "…": paths, whose file name
	// tells them apart.
	Tailed
)

// gap is the space between two columns.
const gap = 2

// defaultMin is the narrowest a shrinking column gets unless it says.
const defaultMin = 12

// Column describes one column of a Table.
type Column struct {
	Title  string
	Right  bool   // align right, as numbers are
	Shrink Shrink // how the column narrows to fit
	Min    int    // the narrowest it narrows to; 0 for defaultMin
	// Optional columns are left out, rightmost first, when the table does
	// not fit width even with every shrinking column at its minimum.
	Optional bool
}

// Table is a text table whose cells are shown safely (termtext.Visible)
// and which narrows its shrinking columns to fit a width.
type Table struct {
	cols []Column
	rows [][]string
}

// NewTable starts a table with these columns.
func NewTable(cols ...Column) *Table {
	return &Table{cols: cols}
}

// Add appends a row; missing cells are empty and extra ones dropped.
func (t *Table) Add(cells ...string) {
	row := make([]string, len(t.cols))
	for i := range row {
		if i < len(cells) {
			row[i] = termtext.Visible(cells[i])
		}
	}
	t.rows = append(t.rows, row)
}

// Write prints the header and the rows, narrowing the shrinking columns so
// that no line is wider than width (0: no limit). Lines carry no trailing
// spaces.
func (t *Table) Write(w io.Writer, width int) error {
	widths := t.fit(width)
	var b strings.Builder
	t.writeRow(&b, t.titles(), widths)
	for _, row := range t.rows {
		t.writeRow(&b, row, widths)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Table) titles() []string {
	titles := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.Title
	}
	return titles
}

// fit is each column's width (hidden for one left out): the widest cell,
// narrowed (widest shrinking column first) until the row fits width: down to
// each column's minimum, then without the optional columns, then down to
// the titles' widths.
func (t *Table) fit(width int) []int {
	widths := make([]int, len(t.cols))
	for i, c := range t.cols {
		widths[i] = Columns(c.Title)
		for _, row := range t.rows {
			widths[i] = max(widths[i], Columns(row[i]))
		}
	}
	if width <= 0 {
		return widths
	}
	t.narrow(widths, width, true)
	for i := len(t.cols) - 1; i >= 0 && total(widths) > width; i-- {
		if t.cols[i].Optional {
			widths[i] = hidden
			t.narrow(widths, width, true)
		}
	}
	t.narrow(widths, width, false)
	return widths
}

// hidden is the width of a column left out.
const hidden = -1

// total is how wide a row of these column widths is.
func total(widths []int) int {
	n := -gap
	for _, w := range widths {
		if w != hidden {
			n += w + gap
		}
	}
	return max(n, 0)
}

// narrow takes a column at a time from the widest shrinking column until
// the row fits width or none can give more.
func (t *Table) narrow(widths []int, width int, soft bool) {
	for over := total(widths) - width; over > 0; over-- {
		i := t.widestShrinking(widths, soft)
		if i < 0 {
			return
		}
		widths[i]--
	}
}

// widestShrinking is the shrinking column with the most room above its
// minimum (soft) or its title's width, or -1 when none has any.
func (t *Table) widestShrinking(widths []int, soft bool) int {
	best, room := -1, 0
	for i, c := range t.cols {
		least := max(1, Columns(c.Title))
		if soft {
			least = max(cmp.Or(c.Min, defaultMin), least)
		}
		if c.Shrink != Fixed && widths[i]-least > room {
			best, room = i, widths[i]-least
		}
	}
	return best
}

func (t *Table) writeRow(b *strings.Builder, row []string, widths []int) {
	var line strings.Builder
	sep := ""
	for i, cell := range row {
		if widths[i] == hidden {
			continue
		}
		line.WriteString(sep)
		sep = strings.Repeat(" ", gap)
		cell = t.cols[i].cut(cell, widths[i])
		pad := strings.Repeat(" ", max(0, widths[i]-Columns(cell)))
		if t.cols[i].Right {
			line.WriteString(pad + cell)
		} else {
			line.WriteString(cell + pad)
		}
	}
	b.WriteString(strings.TrimRight(line.String(), " "))
	b.WriteByte('\n')
}

// cut narrows a cell to width the column's way.
func (c Column) cut(cell string, width int) string {
	switch {
	case Columns(cell) <= width:
		return cell
	case c.Shrink == Tailed:
		return Tail(cell, width)
	}
	return Clip(cell, width)
}
