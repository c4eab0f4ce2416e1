package main

import (
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
)

// compactRow is what the table keeps of an outcome: the preparation's counts,
// not its messages, so a large batch holds little memory.
type compactRow struct {
	compactor.Outcome
	prepared              bool
	split                 bool
	firstKept             string
	toSummarize, inPrefix int
}

func rowOf(o compactor.Outcome) compactRow {
	r := compactRow{Outcome: o}
	if p := o.Prep; p != nil {
		r.prepared, r.split, r.firstKept = true, p.IsSplitTurn, p.FirstKeptEntryID
		r.toSummarize, r.inPrefix = p.MessageCounts()
	}
	r.Prep = nil
	return r
}

// compactTotals sum a batch's outcomes.
type compactTotals struct {
	files, compacted, planned, notDue, nothing, skipped, failed int
	interrupted                                                 int
	before, after                                               int
	elapsed                                                     time.Duration
}

func totalsOf(rows []compactRow) compactTotals {
	t := compactTotals{files: len(rows)}
	for _, o := range rows {
		switch o.Status {
		case compactor.Compacted:
			t.compacted++
			t.before += o.TokensBefore
			t.after += o.TokensAfter
			t.elapsed += o.Elapsed
		case compactor.Planned:
			t.planned++
		case compactor.NotDue:
			t.notDue++
		case compactor.Nothing:
			t.nothing++
		case compactor.Skipped:
			t.skipped++
		case compactor.Failed:
			t.failed++
		case statusInterrupted:
			t.interrupted++
		}
	}
	return t
}

func (t compactTotals) json() []byte {
	n := func(v int) jsonl.RawMessage { return intRaw(v) }
	totals := jsonl.ObjectOf("files", n(t.files), "compacted", n(t.compacted), "planned", n(t.planned),
		"notDue", n(t.notDue), "nothingToCompact", n(t.nothing), "skipped", n(t.skipped), "failed", n(t.failed), "interrupted", n(t.interrupted),
		"tokensBefore", n(t.before), "tokensAfter", n(t.after), "summarizerMs", n(int(t.elapsed/time.Millisecond)))
	return jsonl.ObjectOf("totals", totals.AppendJSON(nil)).AppendJSON(nil)
}

// printCompactTable prints one row per file, then the totals.
func printCompactTable(e *env, rows []compactRow, t compactTotals, plan bool) error {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	if plan {
		fmt.Fprintln(w, "FILE\tDECISION\tTOKENS\tFIRST KEPT\tSPLIT\tTO SUMMARIZE\tTURN PREFIX\tNOTE")
	} else {
		fmt.Fprintln(w, "FILE\tSTATUS\tTOKENS BEFORE\tTOKENS AFTER\tKEPT\tSPLIT\tSUMMARIZER\tNOTE")
	}
	for _, r := range rows {
		fmt.Fprintln(w, tableRow(r, plan))
	}
	if !plan {
		fmt.Fprintf(w, "TOTAL\t\t%d\t%d\t\t\t%s\t\n", t.before, t.after, t.elapsed.Round(time.Millisecond))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(e.stdout, totalsLine(t))
	return err
}

func tableRow(o compactRow, plan bool) string {
	kept, split, first, msgs, prefix := "-", "-", "-", "-", "-"
	if o.prepared && (plan || o.Status == compactor.Compacted) {
		split, first = yesNo(o.split), o.firstKept
		msgs, prefix = strconv.Itoa(o.toSummarize), strconv.Itoa(o.inPrefix)
	}
	file, first, why := termtext.Visible(o.File), termtext.Visible(first), termtext.Visible(note(o.Outcome))
	if plan {
		return fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s", file, o.Status, o.TokensBefore, first, split, msgs, prefix, why)
	}
	after, took := "-", "-"
	if o.Status == compactor.Compacted {
		after, kept, took = strconv.Itoa(o.TokensAfter), strconv.Itoa(o.KeptEntries), o.Elapsed.Round(time.Millisecond).String()
	}
	return fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s", file, o.Status, o.TokensBefore, after, kept, split, took, why)
}

// note is a row's last column: why the file was not compacted, or else what
// the compaction does to Pi's next request.
func note(o compactor.Outcome) string {
	if o.Reason == "" && o.Request != nil {
		return "request: " + o.Request.String()
	}
	return o.Reason
}

func totalsLine(t compactTotals) string {
	line := fmt.Sprintf("%d files: %d compacted, %d due (plan), %d not due, %d nothing to compact, %d skipped, %d failed",
		t.files, t.compacted, t.planned, t.notDue, t.nothing, t.skipped, t.failed)
	if t.interrupted > 0 {
		line += fmt.Sprintf(", %d interrupted", t.interrupted)
	}
	return line
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
