package main

import (
	"time"

	"github.com/pitool/pitool/compactor"
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
)

// fileReport is what nightly did to one file.
type fileReport struct {
	file     string
	action   string
	detail   string
	damage   []string // validation finding codes, before any repair
	repaired bool     // rewritten by repair
	backup   string   // where repair kept the original
	outcome  *compactor.Outcome
	err      error

	notSession *jsonl.NotSessionError // set when skipped as not a Pi session
}

func (r fileReport) did(action, detail string) fileReport {
	r.action, r.detail = action, detail
	return r
}

func (r fileReport) failed(err error) fileReport {
	r.action, r.detail, r.err = actFailed, err.Error(), err
	return r
}

func (r fileReport) compacted(o compactor.Outcome) fileReport {
	r.outcome = &o
	switch o.Status {
	case compactor.Compacted:
		return r.did(actCompacted, "")
	case compactor.NotDue, compactor.Nothing:
		return r.did(actNotDue, o.Reason)
	case compactor.Skipped:
		return r.did(actSkipped, o.Reason)
	}
	return r.failed(o.Err)
}

func (r fileReport) json() jsonl.Object {
	obj := jsonl.ObjectOf("file", jsonl.QuoteString(r.file), "action", jsonl.QuoteString(r.action))
	if r.detail != "" {
		obj.Set("detail", jsonl.QuoteString(r.detail))
	}
	if len(r.damage) > 0 {
		obj.Set("damage", appendStrings(r.damage))
	}
	if r.repaired {
		obj.Set("repaired", boolRaw(true))
		obj.Set("backup", jsonl.QuoteString(r.backup))
	}
	if o := r.outcome; o != nil {
		obj.Set("tokensBefore", intRaw(o.TokensBefore))
		if o.Status == compactor.Compacted {
			obj.Set("tokensAfter", intRaw(o.TokensAfter))
			obj.Set("entryId", jsonl.QuoteString(o.EntryID))
			obj.Set("summarizerMs", intRaw(int(o.Elapsed/time.Millisecond)))
		}
	}
	return obj
}

// nightlyReport is the JSON report of one run.
type nightlyReport struct {
	dir               string
	started, finished time.Time
	interrupted       bool
	files             []fileReport
}

func (rep *nightlyReport) count(action string) int {
	n := 0
	for _, f := range rep.files {
		if f.action == action {
			n++
		}
	}
	return n
}

func (rep *nightlyReport) repairedCount() int {
	n := 0
	for _, f := range rep.files {
		if f.repaired {
			n++
		}
	}
	return n
}

func (rep *nightlyReport) json(run *nightlyRun) []byte {
	totals := jsonl.ObjectOf("files", intRaw(len(rep.files)))
	for _, a := range []string{actCompacted, actNotDue, actArchived, actDamaged, actLive, actSkipped, actFailed} {
		totals.Set(a, intRaw(rep.count(a)))
	}
	totals.Set("repaired", intRaw(rep.repairedCount()))
	files := make([]jsonl.Object, len(rep.files))
	for i, f := range rep.files {
		files[i] = f.json()
	}
	return jsonl.ObjectOf(
		"dir", jsonl.QuoteString(rep.dir),
		"started", jsonl.QuoteString(compactor.ISOTime(rep.started)),
		"finished", jsonl.QuoteString(compactor.ISOTime(rep.finished)),
		"interrupted", boolRaw(rep.interrupted),
		"contextWindow", intRaw(run.opts.ContextWindow),
		"archiveAfterHours", intRaw(int(run.archiveAfter/time.Hour)),
		"totals", totals.AppendJSON(nil),
		"files", jsonl.AppendObjects(nil, files),
	).AppendJSON(nil)
}

func appendStrings(ss []string) jsonl.RawMessage {
	elems := make([]jsonl.RawMessage, len(ss))
	for i, s := range ss {
		elems[i] = jsonl.QuoteString(s)
	}
	return jsonl.AppendArray(nil, elems)
}
