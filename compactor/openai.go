package compactor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// OpenAI summarizes through an OpenAI-compatible chat-completions endpoint
// (OpenAI, llama.cpp, Ollama, vLLM…).
type OpenAI struct {
	BaseURL   string // e.g. https://api.openai.com/v1 or http://localhost:11434/v1
	Model     string
	APIKey    string // sent as a Bearer token when set
	MaxTokens int    // max_tokens of the answer; omitted when 0
	HTTP      HTTPOptions
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model     string        `json:"model"`
	Messages  []chatMessage `json:"messages"`
	MaxTokens int           `json:"max_tokens,omitempty"`
}

type chatResponse struct {
	Choices []struct {
		Message      chatMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Summarize implements Summarizer.
func (s *OpenAI) Summarize(ctx context.Context, req Request) (Response, error) {
	body, err := json.Marshal(chatRequest{Model: s.Model, MaxTokens: s.MaxTokens, Messages: []chatMessage{
		{Role: "system", Content: req.System}, {Role: "user", Content: req.Prompt}}})
	if err != nil {
		return Response{}, err
	}
	header := http.Header{}
	if s.APIKey != "" {
		header.Set("Authorization", "Bearer "+s.APIKey)
	}
	url := strings.TrimRight(s.BaseURL, "/") + "/chat/completions"
	data, err := s.HTTP.postJSON(ctx, "openai", url, header, body)
	if err != nil {
		return Response{}, err
	}
	return parseChat(data)
}

func parseChat(data []byte) (Response, error) {
	var r chatResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return Response{}, fmt.Errorf("openai: bad answer: %w", err)
	}
	if len(r.Choices) == 0 || r.Choices[0].Message.Content == "" {
		return Response{}, fmt.Errorf("openai: %w", errNoText)
	}
	if r.Choices[0].FinishReason == "length" {
		return Response{}, fmt.Errorf("openai: generation hit the token cap and the summary is incomplete")
	}
	resp := Response{Text: r.Choices[0].Message.Content}
	if r.Usage != nil {
		resp.Usage = &Usage{Input: r.Usage.PromptTokens, Output: r.Usage.CompletionTokens}
	}
	return resp, nil
}
