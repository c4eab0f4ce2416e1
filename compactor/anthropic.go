package compactor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// AnthropicVersion is the Messages API version pitool speaks.
const AnthropicVersion = "2023-06-01"

// DefaultMaxTokens bounds a summary's length when the API requires a bound.
const DefaultMaxTokens = 8192

// Anthropic summarizes through Anthropic's Messages API.
type Anthropic struct {
	BaseURL   string // https://api.anthropic.com by default
	Model     string
	APIKey    string
	MaxTokens int // DefaultMaxTokens when 0
	HTTP      HTTPOptions
}

type anthropicRequest struct {
	Model     string        `json:"model"`
	MaxTokens int           `json:"max_tokens"`
	System    string        `json:"system"`
	Messages  []chatMessage `json:"messages"`
}

type anthropicResponse struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      *struct {
		Input      int `json:"input_tokens"`
		Output     int `json:"output_tokens"`
		CacheRead  int `json:"cache_read_input_tokens"`
		CacheWrite int `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// Summarize implements Summarizer.
func (s *Anthropic) Summarize(ctx context.Context, req Request) (Response, error) {
	max := s.MaxTokens
	if max == 0 {
		max = DefaultMaxTokens
	}
	body, err := json.Marshal(anthropicRequest{Model: s.Model, MaxTokens: max, System: req.System,
		Messages: []chatMessage{{Role: "user", Content: req.Prompt}}})
	if err != nil {
		return Response{}, err
	}
	header := http.Header{}
	header.Set("x-api-key", s.APIKey)
	header.Set("anthropic-version", AnthropicVersion)
	url := strings.TrimRight(s.BaseURL, "/") + "/v1/messages"
	data, err := s.HTTP.postJSON(ctx, "anthropic", url, header, body)
	if err != nil {
		return Response{}, err
	}
	return parseAnthropic(data)
}

func parseAnthropic(data []byte) (Response, error) {
	var r anthropicResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return Response{}, fmt.Errorf("anthropic: bad answer: %w", err)
	}
	if r.StopReason == "max_tokens" {
		return Response{}, fmt.Errorf("anthropic: generation hit the token cap and the summary is incomplete")
	}
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
		if c.Type == "tool_use" {
			return Response{}, fmt.Errorf("anthropic: summarization attempted to call a tool")
		}
	}
	if len(parts) == 0 {
		return Response{}, fmt.Errorf("anthropic: %w", errNoText)
	}
	resp := Response{Text: strings.Join(parts, "\n")}
	if u := r.Usage; u != nil {
		resp.Usage = &Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite}
	}
	return resp, nil
}
