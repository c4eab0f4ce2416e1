package jsonl

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// Listing is one row of Pi's /resume list: what SessionManager.listAll
// reads of a session (header, name, message count, first message, last
// activity), plus the file's size and entry count, which cost nothing more.
type Listing struct {
	ID                string  `json:"id"`
	Cwd               string  `json:"cwd"`
	Name              string  `json:"name,omitempty"`
	ParentSessionPath string  `json:"parentSessionPath,omitempty"`
	Created           *string `json:"created"`
	Modified          string  `json:"modified"`
	MessageCount      int     `json:"messageCount"`
	FirstMessage      string  `json:"firstMessage"`
	Path              string  `json:"path"`
	FileSize          int64   `json:"fileSize"`
	Entries           int     `json:"entries"`
}

// Details are what pitool adds to a Listing, which need the index and the
// context's token estimate: leaves, tokens, cost and models.
type Details struct {
	Leaves        int      `json:"leaves"`
	ContextTokens int      `json:"contextTokens"`
	Tokens        Usage    `json:"tokens"`
	Cost          float64  `json:"cost"`
	Models        []string `json:"models"`
	HasHeader     bool     `json:"hasHeader"`
	Version       int      `json:"version"`
}

// Info summarises a session the way Pi's /resume list does, plus totals
// pitool adds: leaves, tokens, cost and models.
type Info struct {
	Listing
	Details
}

// infoSkim is what Info reads of each message, usage and session_info entry.
// Its usage keys are the usage rule's (usage.go).
type infoSkim struct {
	usageTop
	Timestamp string       `json:"timestamp"`
	Name      *string      `json:"name"`
	ModelID   string       `json:"modelId"`
	Message   *infoMessage `json:"message"`
}

type infoMessage struct {
	usageMessage
	Content   RawMessage `json:"content"`
	Timestamp RawMessage `json:"timestamp"`
}

// Info reads every entry once (message text, names, usage) and returns the
// session's summary, or an *UnlistedError for a session Pi's listing drops
// (as Lister.ListFile does), which has no /resume row to summarise. modTime is the file's modification time, Pi's last resort
// for "modified" (rounded to the millisecond as Node rounds it).
func (ix *Index) Info(path string, modTime time.Time) (*Info, error) {
	in := &Info{Listing: Listing{ID: ix.Header.ID, Cwd: ix.Header.Cwd, ParentSessionPath: ix.Header.ParentSession, Path: path,
		FileSize: ix.Bytes, Entries: ix.Len()}, Details: Details{Leaves: ix.LeafCount(), HasHeader: ix.HasHeader, Version: ix.Version, Models: []string{}}}
	acc := infoAccumulator{listing: listingAccumulator{row: &in.Listing}, details: &in.Details, models: map[string]bool{}}
	var lister Lister
	scratch := listingAccumulator{row: &Listing{}}
	for i := 0; i < ix.Len(); i++ {
		if err := acc.add(ix, i); err != nil {
			return nil, err
		}
		if err := ix.unlisted(&lister, &scratch, i); err != nil {
			return nil, err
		}
	}
	acc.listing.finish(ix.Header.Timestamp, modTime)
	sort.Strings(in.Models)
	return in, ix.addContextTokens(in)
}

// unlisted returns an *UnlistedError when entry i is a line on which Pi's
// listing fails (so that Pi lists no row of the file), judged as the Lister
// judges it: only message and session_info entries can fail.
func (ix *Index) unlisted(l *Lister, scratch *listingAccumulator, i int) error {
	if t := ix.Type(i); t != TypeMessage && t != TypeSessionInfo {
		return nil
	}
	raw, err := ix.rawLine(i)
	if err != nil {
		return err
	}
	if reason := l.entry(raw, scratch); reason != "" {
		return &UnlistedError{Line: ix.LineNum(i), Reason: reason}
	}
	return nil
}

func (ix *Index) addContextTokens(in *Info) error {
	if ix.Len() == 0 {
		return nil
	}
	sel, err := ix.Select(ix.ActiveLeaf())
	if err != nil {
		return nil // a cycle leaves the context undefined; the rest of the summary still stands
	}
	var c contextTokens
	err = ix.Stream(sel, func(pe ProjectedEntry) error {
		for _, m := range pe.Messages {
			c.add(m)
		}
		return nil
	})
	in.ContextTokens = c.context().Tokens
	return err
}

// infoAccumulator gathers an Info from the index's entries: the Listing,
// then the Details.
type infoAccumulator struct {
	listing listingAccumulator
	details *Details
	models  map[string]bool
}

func (a *infoAccumulator) add(ix *Index, i int) error {
	t := ix.Type(i)
	if !billable(t) && t != TypeSessionInfo && t != TypeModelChange {
		return nil
	}
	raw, err := ix.rawLine(i)
	if err != nil {
		return err
	}
	var s infoSkim
	Unmarshal(raw, &s) // validated by the index pass; mismatched types leave fields empty
	a.addCharge(t, &s)
	switch t {
	case TypeSessionInfo:
		a.listing.setName(s.Name)
	case TypeModelChange:
		a.addModel(s.Provider, s.ModelID)
	case TypeMessage:
		a.addMessage(&s)
	}
	return nil
}

func (a *infoAccumulator) addMessage(s *infoSkim) {
	m := s.Message
	if m == nil {
		a.listing.addMessage(NoRole, nil, nil, s.Timestamp)
		return
	}
	role := parseRole([]byte(m.Role))
	if role == AssistantRole {
		a.addModel(m.Provider, m.Model)
	}
	a.listing.addMessage(role, m.Content, m.Timestamp, s.Timestamp)
}

// addCharge adds what the entry adds to the totals under Pi's rule (Charges).
func (a *infoAccumulator) addCharge(t EntryType, s *infoSkim) {
	var m *usageMessage
	if s.Message != nil {
		m = &s.Message.usageMessage
	}
	if c, ok := chargeOf(t, &s.usageTop, m); ok {
		a.details.Tokens.Add(c.Usage)
		a.details.Cost += c.Usage.CostTotal()
	}
}

func (a *infoAccumulator) addModel(provider, model string) {
	if model == "" {
		return
	}
	key := provider + "/" + model
	if !a.models[key] {
		a.models[key] = true
		a.details.Models = append(a.details.Models, key)
	}
}

// listingAccumulator gathers a Listing from a session's entries, as Pi's
// buildSessionInfo does: the latest name, the message count, the first
// user text and the last activity. The index (Info) and the byte scan
// (Lister) both feed it, so the two agree by construction.
type listingAccumulator struct {
	row          *Listing
	lastActivity float64
	name         string
}

// setName takes a session_info entry's name: the latest one counts, and an
// absent or blank one clears it.
func (a *listingAccumulator) setName(name *string) {
	a.name = ""
	if name != nil {
		a.name = strings.TrimSpace(*name)
	}
}

// addMessage counts a message entry. Only a user or assistant message with
// content counts as activity; its time is the message's numeric
// "timestamp", else the entry's. content is the raw "content" (nil when
// absent); the text of the first user message with any is Pi's first message.
func (a *listingAccumulator) addMessage(role Role, content, msgTime RawMessage, entryTime string) {
	a.row.MessageCount++
	if (role != UserRole && role != AssistantRole) || content == nil {
		return
	}
	a.noteActivity(msgTime, entryTime)
	if role == UserRole && a.row.FirstMessage == "" {
		a.row.FirstMessage = ExtractText(content)
	}
}

func (a *listingAccumulator) noteActivity(msgTime RawMessage, entryTime string) {
	ms, ok := numberValue(msgTime)
	if !ok {
		t, ok := ParseTimestamp(entryTime)
		if !ok {
			return
		}
		ms = float64(t.UnixMilli())
	}
	a.lastActivity = math.Max(a.lastActivity, ms)
}

// numberValue reads a raw JSON value that is a number, as JSON.parse reads
// it; ok is false for any other value (or none), and for a number beyond
// float64.
func numberValue(raw RawMessage) (float64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	if n, ok := smallInteger(raw); ok {
		return n, true
	}
	n, err := strconv.ParseFloat(unsafe.String(&raw[0], len(raw)), 64)
	return n, err == nil
}

// smallInteger reads a number of at most 15 digits and nothing else
// (milliseconds since 1970, as Pi writes them), exactly, without
// strconv's general parse.
func smallInteger(raw []byte) (float64, bool) {
	if len(raw) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return float64(n), true
}

// finish settles the name, first message and Pi's "created" and "modified".
func (a *listingAccumulator) finish(headerTime string, modTime time.Time) {
	in := a.row
	in.Name = a.name
	if in.FirstMessage == "" {
		in.FirstMessage = "(no messages)"
	}
	created, createdOK := ParseTimestamp(headerTime)
	if createdOK {
		s := ISOTime(created)
		in.Created = &s
	}
	switch {
	case a.lastActivity > 0:
		in.Modified = ISOTime(time.UnixMilli(int64(a.lastActivity)))
	case createdOK:
		in.Modified = ISOTime(created)
	default:
		in.Modified = ISOTime(nodeStatsTime(modTime))
	}
}

// nodeStatsTime is a file time as Pi sees it through Node's fs.Stats: the
// milliseconds sec*1e3 + nsec/1e6, computed in float64 (so 123.4999 ms may
// already be 123.5), then rounded half up as Math.round does; Pi's "modified"
// falls back to that Date. Truncating is 1 ms early whenever the fraction
// reaches half a millisecond.
func nodeStatsTime(t time.Time) time.Time {
	ms := float64(t.Unix())*1e3 + float64(t.Nanosecond())/1e6
	rounded := math.Floor(ms)
	if ms-rounded >= 0.5 {
		rounded++
	}
	return time.UnixMilli(int64(rounded))
}

// ExtractText is Pi's extractTextContent: a string content, or its text blocks
// joined with spaces.
func ExtractText(content RawMessage) string {
	if s, ok := DecodeString(content); ok {
		return s
	}
	var parts []string
	for _, b := range contentBlocks(content) {
		if BlockType(b.Get("type")) == BlockText {
			parts = append(parts, b.String("text"))
		}
	}
	return strings.Join(parts, " ")
}
