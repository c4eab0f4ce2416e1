package compactor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pitool/pitool/jsonl"
)

// Kind says which of Pi's two summaries a request asks for.
type Kind int

const (
	// History summarizes the messages before the cut (Pi's generateSummary).
	History Kind = iota
	// TurnPrefix summarizes the start of a split turn (Pi's generateTurnPrefixSummary).
	TurnPrefix
)

// Request is one summarization call, with Pi's prompt already built.
type Request struct {
	Kind   Kind
	System string // Pi's summarization system prompt
	Prompt string // the user prompt: serialized conversation plus instructions
	// Messages are the agent messages the prompt serializes, for summarizers
	// that read them directly (extractive).
	Messages        []jsonl.Object
	PreviousSummary string // "" without one
	Instructions    string // the user's extra focus, "" without one
	File            string // the session file, for error messages
}

// Usage is a summarizer's token usage, when it reports one.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
}

// Add returns the sum of two usages, as Pi's combineUsage.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheRead + v.CacheRead, u.CacheWrite + v.CacheWrite}
}

// Response is what a summarizer returns.
type Response struct {
	Text  string
	Usage *Usage // nil when unknown
}

// Summarizer turns one request into a summary text.
type Summarizer interface {
	Summarize(ctx context.Context, req Request) (Response, error)
}

// Result is Pi's CompactionResult: what the compaction entry records.
type Result struct {
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int
	Usage            *Usage
	Details          FileLists
	Elapsed          time.Duration // time spent in the summarizer
}

// Compact is Pi's compact: it asks s for the history summary and, for a split
// turn, the turn-prefix summary, merges them and appends the file lists.
func Compact(ctx context.Context, p *Preparation, s Summarizer, instructions, file string) (*Result, error) {
	start := time.Now()
	prev, hasPrev := jsonl.DecodeString(p.PreviousSummary)
	var summary string
	var usage *Usage
	var err error
	if p.IsSplitTurn && len(p.TurnPrefixMessages) > 0 {
		summary, usage, err = splitSummary(ctx, p, s, instructions, file, prev, hasPrev)
	} else {
		summary, usage, err = ask(ctx, s, historyRequest(p, instructions, file, prev))
	}
	if err != nil {
		return nil, err
	}
	lists := p.Files()
	return &Result{Summary: summary + lists.Format(), FirstKeptEntryID: p.FirstKeptEntryID,
		TokensBefore: p.TokensBefore, Usage: usage, Details: lists, Elapsed: time.Since(start)}, nil
}

func splitSummary(ctx context.Context, p *Preparation, s Summarizer, instructions, file, prev string, hasPrev bool) (string, *Usage, error) {
	history := "No prior history."
	if hasPrev {
		history = prev
	}
	var usage *Usage
	if len(p.MessagesToSummarize) > 0 {
		text, u, err := ask(ctx, s, historyRequest(p, instructions, file, prev))
		if err != nil {
			return "", nil, err
		}
		history, usage = text, u
	}
	prefix, u, err := ask(ctx, s, turnPrefixRequest(p, instructions, file))
	if err != nil {
		return "", nil, err
	}
	if usage != nil && u != nil {
		sum := usage.Add(*u)
		u = &sum
	}
	return history + "\n\n---\n\n**Turn Context (split turn):**\n\n" + prefix, u, nil
}

func ask(ctx context.Context, s Summarizer, req Request) (string, *Usage, error) {
	resp, err := s.Summarize(ctx, req)
	if err != nil {
		return "", nil, fmt.Errorf("%s: summarize: %w", req.File, err)
	}
	return strings.ToValidUTF8(resp.Text, "\uFFFD"), resp.Usage, nil
}

// historyRequest builds Pi's generateSummary prompt: the initial prompt, or the
// update prompt with the previous summary.
func historyRequest(p *Preparation, instructions, file, prev string) Request {
	base := SummarizationPrompt
	if prev != "" {
		base = UpdateSummarizationPrompt
	}
	if instructions != "" {
		base += "\n\nAdditional focus: " + instructions
	}
	prompt := "<conversation>\n" + p.SummarizeText() + "\n</conversation>\n\n"
	if prev != "" {
		prompt += "<previous-summary>\n" + prev + "\n</previous-summary>\n\n"
	}
	return Request{Kind: History, System: SystemPrompt, Prompt: prompt + base, Messages: p.MessagesToSummarize,
		PreviousSummary: prev, Instructions: instructions, File: file}
}

// turnPrefixRequest builds Pi's generateTurnPrefixSummary prompt.
func turnPrefixRequest(p *Preparation, instructions, file string) Request {
	prompt := "# Conversation\n" + p.TurnPrefixText() + "\n\n# Instructions\n" + TurnPrefixPrompt
	if instructions != "" {
		prompt += "\n\nAdditional focus: " + instructions
	}
	return Request{Kind: TurnPrefix, System: SystemPrompt, Prompt: prompt, Messages: p.TurnPrefixMessages,
		Instructions: instructions, File: file}
}
