package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// The actions nightly reports per file.
const (
	actLive      = "live"      // modified too recently: left alone
	actArchived  = "archived"  // compressed to .jsonl.zst
	actDamaged   = "damaged"   // damage repair could not fix: left alone
	actCompacted = "compacted" // one compaction entry appended
	actNotDue    = "not-due"   // nothing to do
	actSkipped   = "skipped"   // compaction not possible now (changed, locked, legacy format…)
	actFailed    = "failed"
	// in flight when the run was interrupted: left as it was, or with its
	// step completed, never half-written
	actInterrupted = "interrupted"
)

// actions lists the actions counted in the report's totals before
// "repaired" (then "interrupted" follows).
var actions = []string{actCompacted, actNotDue, actArchived, actDamaged, actLive, actSkipped, actFailed}

// fileReport is what nightly did to one file.
type fileReport struct {
	file     string
	action   string
	detail   string
	damage   []string // validation finding codes, before any repair
	repaired bool     // rewritten by repair
	backup   string   // where repair kept the original
	tokens   *compactTokens
	err      error
	// remembered: the state file's result for a file unchanged since then
	remembered bool
	// ranAs: the uid of the worker that worked on the file, when nightly
	// runs as root (nil for a file the root process worked on itself, as
	// when not root, and for a file the state file answered for)
	ranAs *uint32

	notSession *jsonl.NotSessionError // set when skipped as not a Pi session
}

func (r fileReport) did(action, detail string) fileReport {
	r.action, r.detail = action, detail
	return r
}

func (r fileReport) failed(err error) fileReport {
	r.action, r.detail, r.err = actFailed, strings.TrimPrefix(fileError(r.file, err), r.file+": "), err
	if errors.Is(err, safefile.ErrOutsideTree) {
		// as a link out of the folder found by the walk: not written, not a failure
		r.action, r.err = actSkipped, nil
	}
	return r
}

// compactTokens is what the report keeps of a compaction outcome: its
// figures, never its preparation, whose messages and texts would otherwise
// stay reachable from the report until the end of the run.
type compactTokens struct {
	before, after int
	entryID       string // "" unless compacted
	summarizer    time.Duration
}

func (r fileReport) compacted(o compactor.Outcome) fileReport {
	r.tokens = &compactTokens{before: o.TokensBefore}
	if o.Status == compactor.Compacted {
		r.tokens.after, r.tokens.entryID, r.tokens.summarizer = o.TokensAfter, o.EntryID, o.Elapsed
	}
	switch o.Status {
	case compactor.Compacted:
		return r.did(actCompacted, "")
	case compactor.Planned: // --dry-run: due, and would be compacted
		return r.did(actCompacted, fmt.Sprintf("due: %d tokens", o.TokensBefore))
	case compactor.NotDue, compactor.Nothing:
		return r.did(actNotDue, o.Reason)
	case compactor.Skipped:
		return r.did(actSkipped, o.Reason)
	}
	return r.failed(o.Err)
}

// wouldActions are the actions of a dry run's report: what the real run
// would do, in the future tense.
var wouldActions = map[string]string{actArchived: "would archive", actCompacted: "would compact"}

// appendJSON appends the report's object for the file to dst; with dryRun
// its actions are in the future tense ("would compact", "wouldRepair":
// true). It appends field by field, with no object built per file: a run
// over 10,000 files remembered unchanged spent a tenth of its time on those.
func (r fileReport) appendJSON(dst []byte, dryRun bool) []byte {
	action, repaired := r.action, "repaired"
	if would, ok := wouldActions[action]; ok && dryRun {
		action = would
	}
	if dryRun {
		repaired = "wouldRepair"
	}
	dst = jsonl.AppendString(append(dst, `{"file":`...), r.file)
	dst = jsonl.AppendString(append(dst, `,"action":`...), action)
	if r.detail != "" {
		dst = jsonl.AppendString(append(dst, `,"detail":`...), r.detail)
	}
	if len(r.damage) > 0 {
		dst = append(append(dst, `,"damage":`...), appendStrings(r.damage)...)
	}
	if r.repaired {
		dst = append(jsonl.AppendString(append(dst, ','), repaired), ":true"...)
	}
	if r.backup != "" {
		dst = jsonl.AppendString(append(dst, `,"backup":`...), r.backup)
	}
	if r.remembered {
		dst = append(dst, `,"remembered":true`...)
	}
	if r.ranAs != nil {
		dst = strconv.AppendUint(append(dst, `,"ranAs":`...), uint64(*r.ranAs), 10)
	}
	if t := r.tokens; t != nil {
		dst = strconv.AppendInt(append(dst, `,"tokensBefore":`...), int64(t.before), 10)
		if t.entryID != "" {
			dst = strconv.AppendInt(append(dst, `,"tokensAfter":`...), int64(t.after), 10)
			dst = jsonl.AppendString(append(dst, `,"entryId":`...), t.entryID)
			dst = strconv.AppendInt(append(dst, `,"summarizerMs":`...), int64(t.summarizer/time.Millisecond), 10)
		}
	}
	return append(dst, '}')
}

// nightlyReport is the JSON report of one run.
type nightlyReport struct {
	dir       string
	dirs      []string // every DIR, when more than one
	separated bool     // run as root: the files were worked on as their users (privsep.go)
	// workers: who worked on the files of a run as root; listed in the
	// report when some worker ran as another user than root
	workers           []workerReport
	started, finished time.Time
	interrupted       bool
	dryRun            bool
	planned           int // files the run set out to do
	files             []fileReport
	tally             *reportTally // counts: the last tally of files
}

func (rep *nightlyReport) count(action string) int { return rep.counts().actions[action] }

func (rep *nightlyReport) repairedCount() int { return rep.counts().repaired }

// damagedCount is how many files were found damaged (they list "damage"),
// repaired or not.
func (rep *nightlyReport) damagedCount() int { return rep.counts().damaged }

// rememberedCount is how many files the state file answered for.
func (rep *nightlyReport) rememberedCount() int { return rep.counts().remembered }

// reportTally is what the report counts of its files, taken in one pass:
// the report and the summary ask for a score of counts (before, a pass over
// 10,000 files each: 3 ms of a second run, issue 28).
type reportTally struct {
	files      int // how many files it counted
	actions    map[string]int
	repaired   int
	damaged    int
	remembered int
}

// counts returns the tally of rep's files, counted again only when a file
// was added since.
func (rep *nightlyReport) counts() *reportTally {
	if t := rep.tally; t != nil && t.files == len(rep.files) {
		return t
	}
	t := &reportTally{files: len(rep.files), actions: map[string]int{}}
	for _, f := range rep.files {
		t.actions[f.action]++
		t.repaired += boolInt(f.repaired)
		t.damaged += boolInt(len(f.damage) > 0)
		t.remembered += boolInt(f.remembered)
	}
	rep.tally = t
	return t
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeJSON writes the report as one JSON line, a file's object at a time,
// so that writing it takes the memory of one file's object, not of the
// whole report, whatever the number of files. The totals count files per
// action, except "damaged": the files found damaged, repaired or not (those
// repair could not fix have the action "damaged"). A dry run's totals have
// the real run's keys and count what it would do, so the two compare.
func (rep *nightlyReport) writeJSON(w io.Writer, run *nightlyRun) error {
	totals := jsonl.ObjectOf("files", intRaw(len(rep.files)))
	for _, a := range actions {
		totals.Set(a, intRaw(rep.count(a)))
	}
	totals.Set(actDamaged, intRaw(rep.damagedCount()))
	totals.Set("repaired", intRaw(rep.repairedCount()))
	totals.Set(actInterrupted, intRaw(rep.count(actInterrupted)))
	head := jsonl.ObjectOf(
		"dir", jsonl.QuoteString(rep.dir),
		"started", jsonl.QuoteString(jsonl.ISOTime(rep.started)),
		"finished", jsonl.QuoteString(jsonl.ISOTime(rep.finished)),
		"interrupted", boolRaw(rep.interrupted),
		"dryRun", boolRaw(rep.dryRun),
		"contextWindow", intRaw(run.opts.ContextWindow),
		"archiveAfterHours", intRaw(int(run.archiveAfter/time.Hour)),
		"totals", totals.AppendJSON(nil),
		"remembered", intRaw(rep.rememberedCount()),
	)
	if len(rep.dirs) > 1 {
		head.Set("dirs", appendStrings(rep.dirs))
	}
	if rep.separated && rep.otherUsers() != "" {
		head.Set("workers", rep.workersJSON())
	}
	headJSON := head.AppendJSON(nil)
	bw := bufio.NewWriter(w)
	bw.Write(jsonl.ToValidUTF8(headJSON[:len(headJSON)-1])) // the files go before its closing brace
	bw.WriteString(`,"files":[`)
	var line []byte
	for i, f := range rep.files {
		if i > 0 {
			bw.WriteByte(',')
		}
		line = f.appendJSON(line[:0], rep.dryRun)
		bw.Write(jsonl.ToValidUTF8(line))
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// workersJSON lists who worked on the files of a run as root: root itself
// ("inProcess") and one worker per user, with its exit status.
func (rep *nightlyReport) workersJSON() jsonl.RawMessage {
	elems := make([]jsonl.RawMessage, len(rep.workers))
	for i, w := range rep.workers {
		o := jsonl.ObjectOf("uid", intRaw(int(w.uid)), "gid", intRaw(int(w.gid)), "user", jsonl.QuoteString(w.user),
			"files", intRaw(w.files), "exit", intRaw(w.exit))
		if w.inProcess {
			o.Set("inProcess", boolRaw(true))
		}
		elems[i] = o.AppendJSON(nil)
	}
	return jsonl.AppendArray(nil, elems)
}

func appendStrings(ss []string) jsonl.RawMessage {
	elems := make([]jsonl.RawMessage, len(ss))
	for i, s := range ss {
		elems[i] = jsonl.QuoteString(s)
	}
	return jsonl.AppendArray(nil, elems)
}

// summary is the run in one line: "12 files: 3 compacted, 1 repaired, …
// (4.2s)". Damaged and interrupted files are named only when there are some.
func (rep *nightlyReport) summary() string {
	var b strings.Builder
	done := [3]string{"compacted", "repaired", "archived"}
	if rep.dryRun {
		b.WriteString("dry run, nothing written: ")
		done = [3]string{"to compact", "to repair", "to archive"}
	}
	fmt.Fprintf(&b, "%d %s: %d %s, %d %s, %d %s, %d not due, %d live, %d skipped",
		rep.planned, textout.Choose(rep.planned, "file", "files"), rep.count(actCompacted), done[0], rep.repairedCount(), done[1],
		rep.count(actArchived), done[2], rep.count(actNotDue), rep.count(actLive), rep.count(actSkipped))
	if n := rep.count(actDamaged); n > 0 {
		fmt.Fprintf(&b, ", %d left damaged", n)
	}
	fmt.Fprintf(&b, ", %d failed", rep.count(actFailed))
	if n := rep.rememberedCount(); n > 0 {
		fmt.Fprintf(&b, "; %d unchanged since the last run", n)
	}
	if rep.interrupted {
		fmt.Fprintf(&b, ", %d interrupted, %d not started", rep.count(actInterrupted), rep.planned-len(rep.files))
	}
	if users := rep.otherUsers(); users != "" {
		fmt.Fprintf(&b, "; worked on as %s", users)
	}
	fmt.Fprintf(&b, " (%s)", rep.finished.Sub(rep.started).Round(time.Millisecond))
	return b.String()
}

// otherUsers names the users a run as root worked on files as: "alice (12
// files), bob (3 files, exit 130)".
func (rep *nightlyReport) otherUsers() string {
	var parts []string
	for _, w := range rep.workers {
		if w.inProcess {
			continue
		}
		p := fmt.Sprintf("%s (%d %s", w.user, w.files, textout.Choose(w.files, "file", "files"))
		if w.exit != 0 {
			p += fmt.Sprintf(", exit %d", w.exit)
		}
		parts = append(parts, p+")")
	}
	return strings.Join(parts, ", ")
}
