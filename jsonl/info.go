package jsonl

import (
	"math"
	"sort"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// Info summarises a session the way Pi's /resume list does, plus totals
// pitool adds: leaves, tokens, cost and models.
type Info struct {
	ID                string   `json:"id"`
	Cwd               string   `json:"cwd"`
	Name              string   `json:"name,omitempty"`
	ParentSessionPath string   `json:"parentSessionPath,omitempty"`
	Created           *string  `json:"created"`
	Modified          string   `json:"modified"`
	MessageCount      int      `json:"messageCount"`
	FirstMessage      string   `json:"firstMessage"`
	Path              string   `json:"path"`
	FileSize          int64    `json:"fileSize"`
	Entries           int      `json:"entries"`
	Leaves            int      `json:"leaves"`
	ContextTokens     int      `json:"contextTokens"`
	Tokens            Usage    `json:"tokens"`
	Cost              float64  `json:"cost"`
	Models            []string `json:"models"`
	HasHeader         bool     `json:"hasHeader"`
	Version           int      `json:"version"`
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
// session's summary. modTime is the file's modification time, Pi's last resort
// for "modified" (rounded to the millisecond as Node rounds it).
func (ix *Index) Info(path string, modTime time.Time) (*Info, error) {
	in := &Info{ID: ix.Header.ID, Cwd: ix.Header.Cwd, ParentSessionPath: ix.Header.ParentSession, Path: path,
		FileSize: ix.Bytes, Entries: ix.Len(), Leaves: len(ix.Leaves()), HasHeader: ix.HasHeader, Version: ix.Version, Models: []string{}}
	acc := infoAccumulator{info: in, models: map[string]bool{}}
	for i := 0; i < ix.Len(); i++ {
		if err := acc.add(ix, i); err != nil {
			return nil, err
		}
	}
	acc.finish(ix.Header.Timestamp, modTime)
	return in, ix.addContextTokens(in)
}

func (ix *Index) addContextTokens(in *Info) error {
	if ix.Len() == 0 {
		return nil
	}
	sel, err := ix.Select(ix.ActiveLeaf())
	if err != nil {
		return nil // a cycle leaves the context undefined; the rest of the summary still stands
	}
	var c TokenCounter
	err = ix.Stream(sel, func(pe ProjectedEntry) error { c.Add(pe.Messages...); return nil })
	in.ContextTokens = c.Context().Tokens
	return err
}

type infoAccumulator struct {
	info         *Info
	models       map[string]bool
	lastActivity float64
	name         string
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
		a.name = ""
		if s.Name != nil {
			a.name = strings.TrimSpace(*s.Name)
		}
	case TypeModelChange:
		a.addModel(s.Provider, s.ModelID)
	case TypeMessage:
		a.addMessage(&s)
	}
	return nil
}

func (a *infoAccumulator) addMessage(s *infoSkim) {
	a.info.MessageCount++
	m := s.Message
	if m == nil || (m.Role != RoleUser && m.Role != RoleAssistant) {
		return
	}
	if m.Role == RoleAssistant {
		a.addModel(m.Provider, m.Model)
	}
	if m.Content == nil {
		return
	}
	a.noteActivity(m.Timestamp, s.Timestamp)
	if text := ExtractText(m.Content); text != "" && a.info.FirstMessage == "" && m.Role == RoleUser {
		a.info.FirstMessage = text
	}
}

func (a *infoAccumulator) noteActivity(msgTime RawMessage, entryTime string) {
	var ms float64
	if err := json.Unmarshal(msgTime, &ms); err != nil {
		t, ok := ParseTimestamp(entryTime)
		if !ok {
			return
		}
		ms = float64(t.UnixMilli())
	}
	a.lastActivity = math.Max(a.lastActivity, ms)
}

// addCharge adds what the entry adds to the totals under Pi's rule (Charges).
func (a *infoAccumulator) addCharge(t EntryType, s *infoSkim) {
	var m *usageMessage
	if s.Message != nil {
		m = &s.Message.usageMessage
	}
	if c, ok := chargeOf(t, &s.usageTop, m); ok {
		a.info.Tokens.Add(c.Usage)
		a.info.Cost += c.Usage.CostTotal()
	}
}

func (a *infoAccumulator) addModel(provider, model string) {
	if model == "" {
		return
	}
	key := provider + "/" + model
	if !a.models[key] {
		a.models[key] = true
		a.info.Models = append(a.info.Models, key)
	}
}

// finish settles the name, first message and Pi's "created" and "modified".
func (a *infoAccumulator) finish(headerTime string, modTime time.Time) {
	in := a.info
	in.Name = a.name
	sort.Strings(in.Models)
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
