package compactor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// DefaultContextWindow is the context window assumed when none is given.
const DefaultContextWindow = 200000

// Options control CompactFile.
type Options struct {
	Settings
	ContextWindow int           // tokens; DefaultContextWindow when 0
	Force         bool          // compact even when not due
	Plan          bool          // decide and prepare, never write
	Leaf          string        // entry id to compact at; "" is the active leaf
	Instructions  string        // extra focus for the summary, as in Pi's /compact
	MinIdle       time.Duration // skip files modified less than this long ago (not when planning)
	Summarizer    Summarizer
	Now           func() time.Time // the entry's time; time.Now when nil
	Stdin         io.Reader        // read for the file "-" (plan only)
	// Messages keeps, in a plan, the messages to summarize (what --json
	// prints); without it a plan holds their counts only, and a session of
	// millions of entries costs a few words per entry. Compaction always
	// decodes them.
	Messages bool
	// NewID picks the entry's id; Pi's generateId (jsonl.GenerateID) when nil.
	NewID func(taken func(string) bool) string
}

// Status is what happened to one file.
type Status string

// The statuses CompactFile reports.
const (
	Compacted Status = "compacted" // one compaction entry appended
	Planned   Status = "planned"   // --plan: due, with a preparation
	NotDue    Status = "not-due"   // the context still fits
	Nothing   Status = "nothing"   // due, but nothing precedes the cut
	Skipped   Status = "skipped"   // not safe or not possible to write now
	Failed    Status = "failed"    // an error
)

// Outcome reports one file.
type Outcome struct {
	File         string
	Status       Status
	Reason       string // why it was skipped, not due or failed
	Due          bool
	TokensBefore int
	TokensAfter  int // estimated context after the compaction
	KeptEntries  int // entries the new context keeps after the summary
	Prep         *Preparation
	Request      *RequestVerdict // what the compaction does to Pi's next request; nil when there is none to write
	EntryID      string
	Elapsed      time.Duration // summarizer time
	Err          error
}

// session is a file read for compaction: its index, the path to the leaf,
// and what the rules read of the selected entries (see projection).
type session struct {
	stamp safefile.Stamp
	ix    *jsonl.Index
	comp  jsonl.Compression
	src   *jsonl.Source    // open until the decisions are made, closed before writing
	leaf  int              // the entry compacted at, jsonl.None in an empty file
	sel   *jsonl.Selection // the context's selection at leaf, nil in an empty file
	proj  *projection
}

// CompactFile decides whether file is due, prepares the compaction and, unless
// planning, summarizes and appends one compaction entry. Errors are reported
// in the Outcome, never returned, so a batch carries on. A file that is not a
// Pi session is Skipped, with a *jsonl.NotSessionError as Err.
func CompactFile(ctx context.Context, file string, opts Options) Outcome {
	out := Outcome{File: file}
	if opts.MinIdle > 0 && !opts.Plan {
		if err := safefile.CheckIdle(file, opts.MinIdle); err != nil {
			return out.skip(err)
		}
	}
	s, err := readSession(file, opts.Leaf, opts.Stdin)
	if ns, ok := jsonl.IsNotSession(err); ok {
		out.Err = ns
		return out.with(Skipped, ns.Describe())
	}
	if err != nil {
		return out.fail(err)
	}
	defer s.close()
	if out.TokensBefore, err = s.proj.contextTokens(); err != nil {
		return out.fail(err)
	}
	window := opts.ContextWindow
	if window <= 0 {
		window = DefaultContextWindow
	}
	out.Due = opts.Force || opts.Settings.Due(out.TokensBefore, window)
	if out.Prep, err = s.proj.prepare(out.TokensBefore, opts.Settings); err == nil && out.Prep != nil && (opts.Messages || out.Due && !opts.Plan) {
		err = out.Prep.loadMessages()
	}
	if err != nil {
		return out.fail(err)
	}
	switch {
	case !out.Due:
		return out.with(NotDue, fmt.Sprintf("%d tokens, compaction starts above %d", out.TokensBefore, window-opts.ReserveTokens))
	case out.Prep == nil:
		return out.with(Nothing, "nothing before the cut point to summarize")
	}
	v, err := CheckRequest(s.ix, s.sel, out.Prep.FirstKeptEntryID)
	s.close()
	if err != nil {
		return out.fail(err)
	}
	out.Request = &v
	switch {
	case v.Worse():
		return out.with(Skipped, v.refusal(out.Prep.FirstKeptEntryID))
	case opts.Plan:
		if reason := unfit(s); reason != "" {
			return out.with(Skipped, reason) // as the real run would say
		}
		return out.with(Planned, "")
	}
	return out.write(ctx, s, opts)
}

func (o Outcome) with(st Status, reason string) Outcome {
	o.Status, o.Reason = st, reason
	return o
}

func (o Outcome) skip(err error) Outcome {
	o.Status, o.Reason, o.Err = Skipped, err.Error(), err
	return o
}

func (o Outcome) fail(err error) Outcome {
	o.Status, o.Reason, o.Err = Failed, err.Error(), err
	return o
}

func readSession(file, leafID string, stdin io.Reader) (*session, error) {
	src, err := jsonl.Open(file, stdin)
	if err != nil {
		return nil, err
	}
	var stamp safefile.Stamp
	if src.Info != nil {
		// the stamp of the file read, not of what the name holds later:
		// AppendLine appends only to this inode
		stamp = safefile.InfoStamp(src.Info)
	}
	ix, err := jsonl.BuildIndex(src)
	if err == nil && !ix.HasHeader {
		err = &jsonl.PosError{File: file, Err: errors.New("no session header; Pi cannot open it (run pitool repair)")}
	}
	if err != nil {
		src.Close()
		return nil, err
	}
	s := &session{stamp: stamp, ix: ix, comp: src.Compression, src: src}
	if err := s.load(leafID); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// close releases the file the index decodes entries from; the session's
// entries cannot be decoded after it. It may be called more than once.
func (s *session) close() {
	if s.src != nil {
		s.src.Close()
		s.src = nil
	}
}

// load selects and projects the context at the leaf with jsonl's streaming
// pipeline, decoding only the selected entries.
func (s *session) load(leafID string) error {
	s.proj, s.leaf = newProjection(indexPath{ix: s.ix}, 0, nil), jsonl.None
	if s.ix.Len() == 0 {
		return nil
	}
	leaf, err := s.ix.ResolveLeaf(leafID)
	if err != nil {
		return err
	}
	s.leaf = leaf
	sel, err := s.ix.Select(leaf)
	if err != nil {
		return err
	}
	s.sel = sel
	again := func(at int) (jsonl.ProjectedEntry, error) { return s.ix.ProjectAt(sel, at) }
	s.proj = newProjection(indexPath{ix: s.ix, entries: sel.Path}, len(sel.Entries), again)
	return s.ix.StreamAt(sel, func(at int, e jsonl.ProjectedEntry) error {
		s.proj.add(at, e)
		return nil
	})
}

// write summarizes and appends the entry, after checking the file can take it.
func (o Outcome) write(ctx context.Context, s *session, opts Options) Outcome {
	if reason := unwritable(s); reason != "" {
		return o.with(Skipped, reason)
	}
	res, err := Compact(ctx, o.Prep, opts.Summarizer, opts.Instructions, o.File)
	if err != nil {
		return o.fail(err)
	}
	if err := ctx.Err(); err != nil {
		return o.fail(err)
	}
	now, newID := time.Now, func(taken func(string) bool) string { return jsonl.GenerateID(nil, taken) }
	if opts.Now != nil {
		now = opts.Now
	}
	if opts.NewID != nil {
		newID = opts.NewID
	}
	taken := func(id string) bool { _, ok := s.ix.Lookup(id); return ok }
	entry := NewEntry(res, o.Prep, newID(taken), s.ix.ID(s.leaf), now())
	line := append(jsonl.ToValidUTF8(entry.AppendJSON(nil)), '\n')
	if err := safefile.AppendLine(o.File, s.stamp, line); err != nil {
		if errors.Is(err, safefile.ErrChanged) || errors.Is(err, safefile.ErrLocked) || errors.Is(err, safefile.ErrOutsideTree) {
			return o.skip(err)
		}
		return o.fail(err)
	}
	o.EntryID, o.Elapsed = entry.String("id"), res.Elapsed
	o.TokensAfter, o.KeptEntries = after(s.proj, o.Prep.firstKept, entry)
	return o.with(Compacted, "")
}

// unwritable says why an entry cannot be appended to this file, "" when it can.
func unwritable(s *session) string {
	if s.ix.Name == jsonl.StdinName {
		return "standard input cannot be appended to; name the file"
	}
	return unfit(s)
}

// unfit says why the session's bytes cannot take an appended entry, "" when
// they can: what a plan checks too, so that it says what the real run will
// do. Of standard input (a plan on bytes given so) the framing is not checked.
func unfit(s *session) string {
	switch {
	case s.comp != jsonl.Plain:
		return "compressed (" + s.comp.String() + ") files are archives; decompress to compact"
	case s.ix.Version < jsonl.CurrentVersion:
		return fmt.Sprintf("format v%d: Pi migrates it to v3 on first open; open it in Pi once, then compact", s.ix.Version)
	case len(s.ix.Skipped) > 0 || len(s.ix.ExtraHeads) > 0:
		return "damaged (skipped or duplicate header lines); run pitool repair first"
	}
	if s.ix.Name == jsonl.StdinName {
		return ""
	}
	return framingProblem(s.ix.Name, s.stamp.Size)
}

// framingProblem checks the bytes Pi's appends depend on: no byte-order mark
// (Pi cannot open such a file), LF line ends, and a final newline.
func framingProblem(file string, size int64) string {
	src, err := jsonl.Open(file, nil) // never waits on a FIFO swapped in
	if err != nil {
		return err.Error()
	}
	defer src.Close()
	f, err := src.ReaderAt()
	if err != nil {
		return err.Error()
	}
	var head [3]byte
	var tail [2]byte
	n, _ := f.ReadAt(head[:], 0)
	m, _ := f.ReadAt(tail[:min(size, 2)], max(size-2, 0))
	switch {
	case n == 3 && string(head[:]) == "\xef\xbb\xbf":
		return "starts with a byte-order mark, which Pi cannot open; run pitool repair first"
	case m == 0 || tail[m-1] != '\n':
		return "last line is unterminated (a crash mid-write?); run pitool repair first"
	case m == 2 && tail[0] == '\r':
		return "CRLF line ends; run pitool repair first"
	}
	return ""
}

// after estimates the context once entry is appended, as Pi would build it:
// the entry's checkpoint and summary, then the entries kept from the
// projected entry firstKept on (system messages dropped). It returns the
// tokens and the entries kept.
func after(proj *projection, firstKept int, entry jsonl.Object) (tokens, kept int) {
	e := &jsonl.Entry{Obj: entry, Type: jsonl.TypeCompaction, ID: entry.String("id"), Parent: jsonl.None}
	msgs, err := jsonl.EntryMessages(e)
	if err != nil {
		return 0, 0
	}
	tokens, kept = proj.keptTokens(firstKept)
	for _, m := range msgs {
		tokens += jsonl.EstimateTokens(m)
	}
	return tokens, kept
}
