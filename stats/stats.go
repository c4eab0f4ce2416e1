// Package stats totals the tokens and cost of Pi sessions, grouped by day,
// week, month, model, provider, project or session.
//
// What counts in a file is Pi's own rule, the one its /session command
// applies and pitool info reports per session: jsonl.Index.Charges (see
// jsonl/usage.go for which entries count and why). Across files, an entry
// that a clone, fork or copy holds again counts once, under the first
// session that holds it (see once.go); Options.PerFile counts every file's
// entries instead, so that the totals are the sum of what pitool info says
// of each session.
package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
)

// By is what the rows of a report group.
type By string

// The groupings.
const (
	ByDay      By = "day"      // the entry's local date, 2026-01-31
	ByWeek     By = "week"     // the ISO week of the entry's local date, 2026-W05
	ByMonth    By = "month"    // 2026-01
	ByModel    By = "model"    // the model that answered (responseModel, else model)
	ByProvider By = "provider" // the provider
	ByProject  By = "project"  // the session's cwd
	BySession  By = "session"  // the session file
)

// Groupings lists every By, in the order help shows them.
var Groupings = []By{ByDay, ByWeek, ByMonth, ByModel, ByProvider, ByProject, BySession}

// NoTime is the key of usage whose entry has no timestamp, when rows group
// by time.
const NoTime = "(no time)"

// Row is the totals of one group.
type Row struct {
	Key        string  `json:"key"`
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	// TotalTokens is input + output + cacheRead + cacheWrite, Pi's total.
	TotalTokens float64 `json:"totalTokens"`
	Cost        float64 `json:"cost"`
	Entries     int     `json:"entries"`  // the entries whose usage counted
	Sessions    int     `json:"sessions"` // the sessions they are in
}

// costDecimals is how many decimals of a dollar a cost keeps in JSON: the
// precision Pi's price tables carry (dollars per million tokens, to the
// cent), beyond which a sum of float64 costs only shows rounding noise
// (2.9009999999999994 for 2.901).
const costDecimals = 6

// MarshalJSON writes the row with its cost rounded to costDecimals, text
// unescaped as JSON.stringify writes it (no \u003c for <).
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row // without this method
	p := plain(r)
	scale := math.Pow10(costDecimals)
	p.Cost = math.Round(p.Cost*scale) / scale
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("stats row %q: %w", r.Key, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// add adds one charge.
func (r *Row) add(c *jsonl.Charge) {
	u := &c.Usage
	r.Input += u.Input
	r.Output += u.Output
	r.CacheRead += u.CacheRead
	r.CacheWrite += u.CacheWrite
	r.TotalTokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
	r.Cost += u.CostTotal()
	r.Entries++
}

// merge adds the totals of another row.
func (r *Row) merge(o *Row) {
	r.Input += o.Input
	r.Output += o.Output
	r.CacheRead += o.CacheRead
	r.CacheWrite += o.CacheWrite
	r.TotalTokens += o.TotalTokens
	r.Cost += o.Cost
	r.Entries += o.Entries
	r.Sessions += o.Sessions
}

// Report is the rows of a grouping and their total.
type Report struct {
	By    By    `json:"by"`
	Rows  []Row `json:"rows"`
	Total Row   `json:"total"`
	// Repeated counts the billed entries left out because an earlier
	// session held them (a clone, fork or copy of it); 0 with PerFile.
	Repeated int `json:"repeated"`
}

// Options choose the grouping and the time range.
type Options struct {
	By           By
	Since, Until time.Time // zero: open
	Workers      int       // files read at once; GOMAXPROCS when < 1
	Stdin        io.Reader // what the file "-" reads
	// PerFile counts each file's entries as Pi's /session does, an entry
	// copied into several files once in each; by default an entry counts
	// once, under the first session that holds it.
	PerFile bool
}

// FileError is a file that could not be read.
type FileError struct {
	File string
	Err  error
}

// Collect totals the files, each billed entry once (see once.go), or with
// opts.PerFile each file's own. Files read in parallel; their rows are merged
// in a fixed order, so the sums do not depend on timing.
func Collect(ctx context.Context, files []string, opts Options) (*Report, []FileError) {
	if !opts.PerFile {
		return collectOnce(ctx, files, opts)
	}
	perFile := make([]map[string]*Row, len(files))
	errs := make([]error, len(files))
	parallel.Each(ctx, len(files), opts.Workers, func() func(int) {
		return func(i int) { perFile[i], errs[i] = fileRows(files[i], &opts) }
	})
	rep := &Report{By: opts.By, Total: Row{Key: "total"}}
	var failed []FileError
	merged := map[string]*Row{}
	sessions := 0
	for i, rows := range perFile {
		if errs[i] != nil {
			failed = append(failed, FileError{files[i], errs[i]})
			continue
		}
		if len(rows) > 0 {
			sessions++
		}
		for _, k := range sortedKeys(rows) {
			if merged[k] == nil {
				merged[k] = &Row{Key: k}
			}
			merged[k].merge(rows[k])
			rep.Total.merge(rows[k])
		}
	}
	rep.Total.Sessions = sessions // a session in several rows counts once
	for _, r := range merged {
		rep.Rows = append(rep.Rows, *r)
	}
	sortRows(rep.Rows, opts.By)
	if rep.Rows == nil {
		rep.Rows = []Row{}
	}
	return rep, failed
}

// fileRows totals one file, by key.
func fileRows(name string, opts *Options) (map[string]*Row, error) {
	ix, closeFn, err := jsonl.IndexFile(name, opts.Stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	rows := map[string]*Row{}
	err = ix.Charges(func(_ int, c jsonl.Charge) error {
		t, timed := jsonl.ParseTimestamp(c.Timestamp)
		if !inRange(opts, t, timed) {
			return nil
		}
		k := key(opts.By, &c, t, timed, ix, name)
		if rows[k] == nil {
			rows[k] = &Row{Key: k, Sessions: 1}
		}
		rows[k].add(&c)
		return nil
	})
	return rows, err
}

// key is the group a charge falls in.
func key(by By, c *jsonl.Charge, t time.Time, timed bool, ix *jsonl.Index, name string) string {
	switch by {
	case ByModel:
		return c.Model
	case ByProvider:
		return c.Provider
	case ByProject:
		return ix.Header.Cwd
	case BySession:
		return name
	}
	if !timed {
		return NoTime
	}
	t = t.Local()
	switch by {
	case ByWeek:
		y, w := t.ISOWeek()
		return fmt.Sprintf("%d-W%02d", y, w)
	case ByMonth:
		return t.Format("2006-01")
	}
	return t.Format("2006-01-02")
}

func sortedKeys(rows map[string]*Row) []string {
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortRows puts time groups in time order and the others by cost, most
// first, then by key.
func sortRows(rows []Row, by By) {
	timely := by == ByDay || by == ByWeek || by == ByMonth
	sort.Slice(rows, func(i, j int) bool {
		if !timely && rows[i].Cost != rows[j].Cost {
			return rows[i].Cost > rows[j].Cost
		}
		return rows[i].Key < rows[j].Key
	})
}

// ParseBy reads a grouping's name.
func ParseBy(s string) (By, error) {
	for _, b := range Groupings {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("unknown grouping %q", s)
}
