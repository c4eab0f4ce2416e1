package search

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitool/pitool/jsonl"
)

// Filter says which texts a search looks at; its zero value looks at all.
type Filter struct {
	Roles  map[string]bool // the roles (Match.Role) to search; nil: all
	Tool   string          // only tool calls and tool results of this tool
	Since  time.Time       // only entries at or after this time
	Until  time.Time       // only entries before this time
	Cwd    string          // only sessions whose cwd is this folder or lies under it
	Active bool            // only entries on the path to the active leaf
}

// Options are what a search does besides matching.
type Options struct {
	Filter
	// Limit stops a file's search after this many matches (-l takes 1);
	// 0: no limit.
	Limit int
	// CountOnly counts matches without building them (-c).
	CountOnly bool
	// Stdin is what the file "-" reads (once: not with Active).
	Stdin io.Reader
	// Copies shows a match that clones, forks and copies of a session
	// share once, at its first holder, naming the others (Match.Copies);
	// the others neither show nor count it. See copies.go.
	Copies bool
}

// Match is one match of the pattern in one text of an entry.
type Match struct {
	File      string `json:"file"`
	Line      int    `json:"line"` // the entry's line in the file
	ID        string `json:"id"`   // the entry's id, for --leaf and --at
	Role      string `json:"role"`
	Kind      string `json:"kind"`
	Tool      string `json:"tool,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
	Before    string `json:"before"` // the text before the match on its line, clipped
	Text      string `json:"match"`  // the match, clipped in the middle when long
	After     string `json:"after"`  // the text after the match on its line, clipped
	// Copies are the other files that hold this match, the clones, forks
	// and copies of its session (with Options.Copies).
	Copies []string `json:"copies,omitempty"`
}

// SnippetRunes is how many characters of context a snippet keeps on each
// side of a match, and half of how many of a long match it keeps.
const SnippetRunes = 60

// fileSearch is the search of one file.
type fileSearch struct {
	m      *Matcher
	opts   *Options
	name   string
	emit   func(Match) error
	count  int
	active map[int]bool   // lines on the active path, with Filter.Active
	ids    map[int]string // line → id, for entries written without one (v1)
	judged bool           // the header line has been read
	derive bool           // a v1 session: ids are the index's, derived
	reader jsonl.Reader
	fields jsonl.Fields
	// validUTF8 says the text being searched holds no invalid UTF-8, so
	// without escapes it is its raw bytes.
	validUTF8 bool
	txt       []byte // the text being searched: s.buf's, or the line's
	buf       []byte // scratch for decoded texts
	// lineBytes is the line being searched, and hits, when listed (its
	// texts counted raw, countsRaw, and the line no longer than
	// listedLineBytes), every occurrence of the pattern in it.
	lineBytes []byte
	hits      []int
	listed    bool

	copies     *copies    // with Options.Copies: the first pass's findings, or its record
	file       int        // this file's place among the files searched
	pass1      bool       // the first pass, which records the keys
	keys       []matchKey // the first pass: this file's match keys
	headerTime time.Time  // the session header's timestamp
	textN      int        // the place of the text searched among its entry's
	keyBuf     []byte     // scratch for the match keys
}

// errStop ends a file's search early (its Limit is reached).
var errStop = errors.New("limit reached")

// searchFile searches one file, calling emit for each match (unless
// CountOnly), and returns how many it found.
func searchFile(ctx context.Context, m *Matcher, opts *Options, name string, emit func(Match) error) (int, error) {
	s := &fileSearch{m: m, opts: opts, name: name, emit: emit}
	return s.search(ctx)
}

// search searches the file.
func (s *fileSearch) search(ctx context.Context) (int, error) {
	name, opts := s.name, s.opts
	if opts.Active {
		if err := s.loadActive(); err != nil {
			return 0, err
		}
	}
	src, err := jsonl.Open(name, opts.Stdin)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if err := src.CheckSession(); err != nil {
		return 0, err
	}
	s.reader.Lean = true // the UTF-8 of a text is checked when it may hold a match
	err = src.EachLine(func(l jsonl.Line) error {
		if (l.Num-1)&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		return s.line(l)
	})
	if errors.Is(err, errStop) {
		return s.count, nil
	}
	return s.count, err
}

// loadActive indexes the file and notes the lines of the active path.
func (s *fileSearch) loadActive() error {
	ix, closeFn, err := jsonl.IndexFile(s.name, nil)
	if err != nil {
		return err
	}
	defer closeFn()
	s.active = map[int]bool{}
	if ix.Len() == 0 {
		return nil
	}
	path, err := ix.Path(ix.ActiveLeaf())
	if err != nil {
		return err
	}
	for _, i := range path {
		s.active[ix.LineNum(i)] = true
	}
	return nil
}

// line searches one line.
func (s *fileSearch) line(l jsonl.Line) error {
	if len(l.Bytes) == 0 {
		return nil
	}
	if !s.judged {
		s.judged = true
		if err := s.header(l); err != nil {
			return err
		}
	}
	if !s.candidate(l.Bytes) || (s.active != nil && !s.active[l.Num]) {
		return nil
	}
	syn := s.reader.Read(l.Bytes, jsonl.SkipSpace(l.Bytes, 0), &s.fields)
	if !syn.OK() || !s.inTime() {
		return nil
	}
	var err error
	s.textN = 0
	entryTexts(&s.reader, l.Bytes, &s.fields, func(t text) bool {
		err = s.text(l, t)
		s.textN++
		return err == nil
	})
	return err
}

// listedLineBytes is the longest line whose occurrences of the pattern are
// listed: the list takes up to 8 bytes per byte of the line (a pattern of
// one letter in a line of it), so the texts of a longer line are looked
// through one by one.
const listedLineBytes = 256 << 10

// candidate is Matcher.Candidate for the line; when its texts are counted
// raw it lists the occurrences of the pattern in it for countRaw, the
// same look through the line, made once for all its texts.
func (s *fileSearch) candidate(line []byte) bool {
	s.listed = s.countingRaw() && len(line) <= listedLineBytes
	if !s.listed {
		return s.m.Candidate(line)
	}
	s.lineBytes, s.hits = line, s.m.appendOccurrences(s.hits[:0], line)
	return s.m.candidateOf(line, s.hits)
}

// header reads the first line that is not blank, the session header: a v1
// session's entries take the ids the index derives, and the cwd filter may
// leave the file out (errStop).
func (s *fileSearch) header(l jsonl.Line) error {
	var f jsonl.Fields
	s.reader.Read(l.Bytes, jsonl.SkipSpace(l.Bytes, 0), &f)
	isHeader := jsonl.EntryTypeOf(f.Type) == jsonl.TypeSession
	s.derive = isHeader && jsonl.SessionVersion(f.Version) == 1
	if isHeader && s.pass1 {
		ts, _ := jsonl.DecodeString(f.Timestamp)
		s.headerTime, _ = jsonl.ParseTimestamp(ts)
	}
	if s.opts.Cwd == "" {
		return nil
	}
	var h struct {
		Cwd string `json:"cwd"`
	}
	jsonl.Unmarshal(l.Bytes, &h)
	if !isHeader || !within(h.Cwd, s.opts.Cwd) {
		return errStop
	}
	return nil
}

// within reports whether dir is folder or lies under it.
func within(dir, folder string) bool {
	rel, err := filepath.Rel(folder, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && dir != "" && filepath.IsAbs(dir) == filepath.IsAbs(folder)
}

// inTime applies the since and until filters to the entry read.
func (s *fileSearch) inTime() bool {
	if s.opts.Since.IsZero() && s.opts.Until.IsZero() {
		return true
	}
	ts, _ := jsonl.DecodeString(s.fields.Timestamp)
	t, ok := jsonl.ParseTimestamp(ts)
	return ok && !t.Before(s.opts.Since) && (s.opts.Until.IsZero() || t.Before(s.opts.Until))
}

// text searches one text of an entry.
func (s *fileSearch) text(l jsonl.Line, t text) error {
	f := &s.opts.Filter
	if (f.Roles != nil && !f.Roles[t.role]) || (f.Tool != "" && t.toolName() != f.Tool) {
		return nil
	}
	if s.countsRaw(t.raw) {
		return nil
	}
	if !s.m.Candidate(t.raw) {
		return nil // the text as written holds no match: the prefilter's fact, for one string
	}
	s.validUTF8 = utf8.Valid(t.raw)
	if !s.decode(t.raw) {
		return nil
	}
	var err error
	s.m.each(s.txt, func(start, end int) bool {
		var others []string
		if s.copies != nil {
			k := s.copies.key(&s.keyBuf, s.entryIDBytes(l), s.fields.Timestamp, &t, s.textN, start, s.txt[start:end])
			if s.pass1 {
				s.keys = append(s.keys, k)
				return true
			}
			var hide bool
			if hide, others = s.copies.lookup(s.file, k); hide {
				return true
			}
		}
		s.count++
		if !s.opts.CountOnly {
			mt := s.match(l, t, start, end)
			mt.Copies = others
			err = s.emit(mt)
		}
		if err == nil && s.opts.Limit > 0 && s.count >= s.opts.Limit {
			err = errStop
		}
		return err == nil
	})
	return err
}

// countingRaw reports whether texts are counted without being decoded:
// when only a count is asked for (no copies to tell apart, no limit) and
// the pattern is plain (Matcher.countRaw).
func (s *fileSearch) countingRaw() bool {
	return s.opts.CountOnly && s.opts.Limit == 0 && s.copies == nil && s.m.plain
}

// countsRaw counts the matches of the JSON string literal raw, a text of
// the line, without decoding it, when it can (countingRaw, Matcher.countRaw).
func (s *fileSearch) countsRaw(raw []byte) bool {
	if !s.countingRaw() || len(raw) < 2 || raw[0] != '"' {
		return false
	}
	inner := raw[1 : len(raw)-1]
	var occ occurrences // the finder's, unless the line's are listed and inner is a slice of it
	if base := offsetIn(s.lineBytes, inner); s.listed && base >= 0 {
		occ = listedOccurrences(s.hits, base)
	}
	n, ok := s.m.countRaw(inner, s.reader.UnicodeEscapes(), occ)
	s.count += n
	return ok
}

// offsetIn is where part, a slice of line, starts in it, or -1 when it is
// not one.
func offsetIn(line, part []byte) int {
	at := cap(line) - cap(part)
	if len(part) == 0 || at < 0 || at+len(part) > len(line) || &line[at] != &part[0] {
		return -1
	}
	return at
}

// decode sets s.txt to the text of the JSON string literal raw, as
// JSON.parse reads it: the bytes between the quotes themselves when they
// hold no escape and are valid UTF-8, else decoded into s.buf. It
// reports false for a literal that decodes to nothing (not a string).
func (s *fileSearch) decode(raw []byte) bool {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if inner := raw[1 : len(raw)-1]; s.validUTF8 && bytes.IndexByte(inner, '\\') < 0 {
			s.txt = inner
			return true
		}
	}
	var ok bool
	if s.validUTF8 {
		s.buf, ok = jsonl.AppendDecodedUTF8String(s.buf[:0], raw)
	} else {
		s.buf, ok = jsonl.AppendDecodedString(s.buf[:0], raw)
	}
	s.txt = s.buf
	return ok || len(s.buf) > 0
}

// match builds the Match of s.txt[start:end].
func (s *fileSearch) match(l jsonl.Line, t text, start, end int) Match {
	id := s.entryID(l)
	ts, _ := jsonl.DecodeString(s.fields.Timestamp)
	lineStart := lastIndexByte(s.txt[:start], '\n') + 1
	lineEnd := end + indexByteOr(s.txt[end:], '\n', len(s.txt)-end)
	return Match{File: s.name, Line: l.Num, ID: id, Role: t.role, Kind: t.kind, Tool: t.toolName(), Timestamp: ts,
		Before: clipLeft(s.txt[lineStart:start]), Text: clipMiddle(s.txt[start:end]), After: clipRight(s.txt[end:lineEnd])}
}

// entryID is the id of the entry read, derived when it has none.
func (s *fileSearch) entryID(l jsonl.Line) string {
	if s.derive || s.fields.ID == nil {
		return s.derivedID(l.Num)
	}
	id, _ := jsonl.DecodeString(s.fields.ID)
	return id
}

// entryIDBytes is entryID without a string made for it when the id is
// written as itself (no escape, valid UTF-8), as ids are: the first pass of
// copies keys every match by it.
func (s *fileSearch) entryIDBytes(l jsonl.Line) []byte {
	if raw := s.fields.ID; !s.derive && len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if id := raw[1 : len(raw)-1]; bytes.IndexByte(id, '\\') < 0 && utf8.Valid(id) {
			return id
		}
	}
	return []byte(s.entryID(l))
}

// derivedID is the id the index gives an entry of a v1 session, or one
// written without an id, so that it works with --leaf and --at.
func (s *fileSearch) derivedID(line int) string {
	if s.ids == nil {
		s.ids = map[int]string{}
		if s.name == jsonl.StdinName {
			return "" // read once, as it came
		}
		if ix, closeFn, err := jsonl.IndexFile(s.name, nil); err == nil {
			for i := 0; i < ix.Len(); i++ {
				s.ids[ix.LineNum(i)] = ix.ID(i)
			}
			closeFn()
		}
	}
	return s.ids[line]
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

func indexByteOr(b []byte, c byte, or int) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return or
}

// clipLeft keeps the last SnippetRunes characters of b.
func clipLeft(b []byte) string {
	if utf8.RuneCount(b) <= SnippetRunes {
		return string(b)
	}
	return "…" + string(b[len(b)-runeTail(b, SnippetRunes):])
}

// runeTail is how many bytes the last n characters of b take.
func runeTail(b []byte, n int) int {
	i := len(b)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRune(b[:i])
		i -= size
	}
	return len(b) - i
}

// runeHead is how many bytes the first n characters of b take.
func runeHead(b []byte, n int) int {
	i := 0
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// clipRight keeps the first SnippetRunes characters of b.
func clipRight(b []byte) string {
	if utf8.RuneCount(b) <= SnippetRunes {
		return string(b)
	}
	return string(b[:runeHead(b, SnippetRunes)]) + "…"
}

// clipMiddle keeps the first and last SnippetRunes characters of b.
func clipMiddle(b []byte) string {
	if utf8.RuneCount(b) <= 2*SnippetRunes {
		return string(b)
	}
	return string(b[:runeHead(b, SnippetRunes)]) + "…" + string(b[len(b)-runeTail(b, SnippetRunes):])
}
