package compactor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var testRequest = Request{Kind: History, System: SystemPrompt, Prompt: "<conversation>\n[User]: hi\n</conversation>\n\n" + SummarizationPrompt, File: "s.jsonl"}

// recordSleeps makes retries instant and records the waits asked for.
func recordSleeps(waits *[]time.Duration) func(context.Context, time.Duration) error {
	return func(_ context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return nil
	}
}

func TestOpenAIRequestAndAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k3y" {
			t.Errorf("path %s, auth %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		var body chatRequest
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		if body.Model != "m1" || len(body.Messages) != 2 || body.Messages[0].Role != "system" ||
			body.Messages[0].Content != SystemPrompt || body.Messages[1].Content != testRequest.Prompt || body.MaxTokens != 100 {
			t.Errorf("request body %+v", body)
		}
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"## Goal\nx"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":5}}`)
	}))
	defer srv.Close()
	s := &OpenAI{BaseURL: srv.URL + "/v1/", Model: "m1", APIKey: "k3y", MaxTokens: 100}
	resp, err := s.Summarize(context.Background(), testRequest)
	if err != nil || resp.Text != "## Goal\nx" || resp.Usage == nil || *resp.Usage != (Usage{Input: 12, Output: 5}) {
		t.Fatalf("got %+v %v %v", resp, resp.Usage, err)
	}
}

func TestAnthropicRequestAndAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" || r.Header.Get("x-api-key") != "sk" || r.Header.Get("anthropic-version") != AnthropicVersion {
			t.Errorf("path %s, headers %v", r.URL.Path, r.Header)
		}
		var body anthropicRequest
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		if body.Model != "claude" || body.System != SystemPrompt || body.MaxTokens != DefaultMaxTokens ||
			len(body.Messages) != 1 || body.Messages[0].Role != "user" || body.Messages[0].Content != testRequest.Prompt {
			t.Errorf("request body %+v", body)
		}
		io.WriteString(w, `{"content":[{"type":"text","text":"sum"}],"stop_reason":"end_turn","usage":{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":1}}`)
	}))
	defer srv.Close()
	s := &Anthropic{BaseURL: srv.URL, Model: "claude", APIKey: "sk"}
	resp, err := s.Summarize(context.Background(), testRequest)
	if err != nil || resp.Text != "sum" || *resp.Usage != (Usage{Input: 7, Output: 3, CacheRead: 1}) {
		t.Fatalf("got %+v %v", resp, err)
	}
}

func TestRetryAfterOn429ThenSuccess(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.WriteHeader(http.StatusBadGateway)
		default:
			io.WriteString(w, `{"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`)
		}
	}))
	defer srv.Close()
	var waits []time.Duration
	s := &OpenAI{BaseURL: srv.URL, Model: "m", HTTP: HTTPOptions{Retries: 3, Backoff: time.Second, sleep: recordSleeps(&waits)}}
	resp, err := s.Summarize(context.Background(), testRequest)
	if err != nil || resp.Text != "ok" || resp.Usage != nil {
		t.Fatalf("got %+v, %v", resp, err)
	}
	if len(waits) != 2 || waits[0] != 7*time.Second || waits[1] != 2*time.Second {
		t.Errorf("waits %v, want [7s 2s] (Retry-After, then backoff doubled)", waits)
	}
}

func TestFinalErrorsAreNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"invalid x-api-key"}}`)
	}))
	defer srv.Close()
	s := &Anthropic{BaseURL: srv.URL, Model: "m", APIKey: "bad", HTTP: HTTPOptions{Retries: 3}}
	_, err := s.Summarize(context.Background(), testRequest)
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 401 || !strings.Contains(err.Error(), "invalid x-api-key") || calls.Load() != 1 {
		t.Fatalf("err %v after %d calls", err, calls.Load())
	}
}

func TestRetriesGiveUp(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	var waits []time.Duration
	s := &OpenAI{BaseURL: srv.URL, HTTP: HTTPOptions{Retries: 2, Backoff: time.Second, sleep: recordSleeps(&waits)}}
	_, err := s.Summarize(context.Background(), testRequest)
	if err == nil || calls.Load() != 3 || len(waits) != 2 || waits[1] != 2*time.Second {
		t.Fatalf("err %v, calls %d, waits %v", err, calls.Load(), waits)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s := &OpenAI{BaseURL: srv.URL, HTTP: HTTPOptions{Timeout: 50 * time.Millisecond}}
	if _, err := s.Summarize(context.Background(), testRequest); err == nil || !strings.Contains(err.Error(), "Timeout") {
		t.Fatalf("err %v, want a timeout", err)
	}
}

func TestLengthStopIsAnError(t *testing.T) {
	if _, err := parseChat([]byte(`{"choices":[{"message":{"content":"half"},"finish_reason":"length"}]}`)); err == nil {
		t.Error("openai length stop accepted")
	}
	if _, err := parseAnthropic([]byte(`{"content":[{"type":"text","text":"half"}],"stop_reason":"max_tokens"}`)); err == nil {
		t.Error("anthropic max_tokens stop accepted")
	}
}

func TestCommandSummarizer(t *testing.T) {
	s := &Command{Line: `echo "kind=$PITOOL_SUMMARY_KIND"; grep -c 'Additional focus' || true`}
	req := testRequest
	req.Prompt += "\n\nAdditional focus: tests"
	resp, err := s.Summarize(context.Background(), req)
	if err != nil || resp.Text != "kind=history\n1" {
		t.Fatalf("got %q, %v", resp.Text, err)
	}
	_, err = (&Command{Line: "echo boom >&2; exit 3"}).Summarize(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err %v, want the command's stderr", err)
	}
}
