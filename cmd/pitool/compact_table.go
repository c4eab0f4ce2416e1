package main

import (
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/textout"
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
	plan                                                        bool // --plan: nothing was written
	files, compacted, planned, notDue, nothing, skipped, failed int
	interrupted                                                 int
	before, after                                               int // of the compacted files
	elapsed                                                     time.Duration
}

func totalsOf(rows []compactRow, plan bool) compactTotals {
	t := compactTotals{plan: plan, files: len(rows)}
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

// compactColumns are the table's columns: --plan's preparation, or what
// the run did. FILE and NOTE narrow to fit the terminal; on a narrow one the
// details of the cut (rightmost first) give way.
func compactColumns(plan bool) []textout.Column {
	file := textout.Column{Title: "FILE", Shrink: textout.Tailed, Min: 20}
	note := textout.Column{Title: "NOTE", Shrink: textout.Clipped, Min: 20}
	count := func(title string, optional bool) textout.Column {
		return textout.Column{Title: title, Right: true, Optional: optional}
	}
	split := textout.Column{Title: "SPLIT", Optional: true}
	if plan {
		return []textout.Column{file, {Title: "DECISION"}, count("TOKENS", false),
			{Title: "FIRST KEPT", Shrink: textout.Clipped, Min: 8, Optional: true}, split,
			count("TO SUMMARIZE", true), count("TURN PREFIX", true), note}
	}
	return []textout.Column{file, {Title: "STATUS"}, count("TOKENS BEFORE", false), count("TOKENS AFTER", false),
		count("KEPT", true), split, count("TIME", true), note}
}

// printCompactTable prints one row per file, then (after a run) the sum of
// the token columns, then the totals line. The after column of a file the
// run left alone is its tokens as they were, so that both sums add up the
// rows; TIME is how long the summarizer took.
func printCompactTable(e *env, rows []compactRow, t compactTotals) error {
	width := textout.Width(e.stdout)
	file := func(p string) string { return p }
	if width > 0 {
		home, _ := os.UserHomeDir()
		file = func(p string) string { return textout.ShortPath(p, "", home) }
	}
	tab := textout.NewTable(compactColumns(t.plan)...)
	var before, after int
	for _, r := range rows {
		tab.Add(tableRow(r, t.plan, file)...)
		if b, a, ok := tokensOf(r); ok {
			before, after = before+b, after+a
		}
	}
	if !t.plan {
		tab.Add("TOTAL", "", textout.Int(int64(before)), textout.Int(int64(after)), "", "", t.elapsed.Round(time.Millisecond).String())
	}
	if err := tab.Write(e.stdout, width); err != nil {
		return err
	}
	_, err := fmt.Fprintln(e.stdout, totalsLine(t))
	return err
}

// tokensOf is a row's context tokens before and after the run, when it
// has them: a skipped, failed or interrupted file has none.
func tokensOf(o compactRow) (before, after int, ok bool) {
	switch o.Status {
	case compactor.Compacted:
		return o.TokensBefore, o.TokensAfter, true
	case compactor.NotDue, compactor.Nothing, compactor.Planned:
		return o.TokensBefore, o.TokensBefore, true
	}
	return 0, 0, false
}

func tableRow(o compactRow, plan bool, file func(string) string) []string {
	kept, split, first, msgs, prefix := "-", "-", "-", "-", "-"
	if o.prepared && (plan || o.Status == compactor.Compacted) {
		split, first = yesNo(o.split), o.firstKept
		msgs, prefix = textout.Int(int64(o.toSummarize)), textout.Int(int64(o.inPrefix))
	}
	before, after, ok := tokensOf(o)
	tokensBefore, tokensAfter := "-", "-"
	if ok {
		tokensBefore, tokensAfter = textout.Int(int64(before)), textout.Int(int64(after))
	}
	if plan {
		return []string{file(o.File), string(o.Status), tokensBefore, first, split, msgs, prefix, note(o.Outcome)}
	}
	took := "-"
	if o.Status == compactor.Compacted {
		kept, took = textout.Int(int64(o.KeptEntries)), o.Elapsed.Round(time.Millisecond).String()
	}
	return []string{file(o.File), string(o.Status), tokensBefore, tokensAfter, kept, split, took, note(o.Outcome)}
}

// note is a row's last column: why the file was not compacted (without
// the file's name, which the row shows already), or else what the
// compaction does to Pi's next request.
func note(o compactor.Outcome) string {
	if o.Reason == "" && o.Request != nil {
		return "request: " + o.Request.String()
	}
	switch err := o.Err.(type) {
	case *jsonl.PosError:
		if err.File == o.File && err.Line == 0 {
			return err.Err.Error()
		}
		if err.File == o.File {
			return fmt.Sprintf("line %d (byte %d): %v", err.Line, err.Offset, err.Err)
		}
	case *fs.PathError:
		if err.Path == o.File {
			return err.Op + ": " + err.Err.Error()
		}
	}
	return o.Reason
}

// totalsLine says what the run did, or with --plan what it would do.
func totalsLine(t compactTotals) string {
	done := textout.Int(int64(t.compacted)) + " compacted"
	if t.plan {
		done = textout.Int(int64(t.planned)) + " to compact"
	}
	line := fmt.Sprintf("%s: %s, %d not due, %d with nothing to compact, %d skipped, %d failed",
		textout.Count(t.files, "file"), done, t.notDue, t.nothing, t.skipped, t.failed)
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
