package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/compactor"
	"github.com/pitool/pitool/jsonl"
)

func copyCorpus(t *testing.T, name string) string {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "v3", name))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func lastLine(t *testing.T, file string) jsonl.Object {
	data, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	obj, err := jsonl.ParseObject([]byte(lines[len(lines)-1]))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestCompactWithOpenAIServer(t *testing.T) {
	var prompts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Model    string
			Messages []struct{ Role, Content string }
		}
		json.NewDecoder(r.Body).Decode(&body)
		if body.Model != "local-model" || len(body.Messages) != 2 || body.Messages[0].Content != compactor.SystemPrompt {
			t.Errorf("request %+v", body)
		}
		prompts = append(prompts, body.Messages[1].Content)
		io.WriteString(w, `{"choices":[{"message":{"content":"## Goal\nfrom the model"},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}`)
	}))
	defer srv.Close()
	file := copyCorpus(t, "linear.jsonl")
	code, _, errOut := runPitool(context.Background(), "compact", "--even-if-not-due", "--keep-recent-tokens", "1000",
		"--summarizer", "openai", "--base-url", srv.URL, "--model", "local-model", "--instructions", "the tests", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if len(prompts) != 2 || !strings.HasPrefix(prompts[0], "<conversation>\n[User]: ") || !strings.HasSuffix(prompts[0], "Additional focus: the tests") ||
		!strings.HasPrefix(prompts[1], "# Conversation\n") {
		t.Fatalf("prompts: %d, %.200q", len(prompts), prompts)
	}
	entry := lastLine(t, file)
	summary := entry.String("summary")
	if !strings.HasPrefix(summary, "## Goal\nfrom the model\n\n---\n\n**Turn Context (split turn):**\n\n## Goal\nfrom the model\n\n<read-files>") {
		t.Errorf("summary %.300q", summary)
	}
	if usage := string(entry.Get("usage")); !strings.HasPrefix(usage, `{"input":200,"output":40,"cacheRead":0,"cacheWrite":0,"totalTokens":240,`) {
		t.Errorf("usage %s", usage)
	}
}

func TestSummarizerFailureNamesFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	}))
	defer srv.Close()
	file := copyCorpus(t, "linear.jsonl")
	before, _ := os.ReadFile(file)
	code, _, errOut := runPitool(context.Background(), "compact", "--even-if-not-due", "--keep-recent-tokens", "1000",
		"--summarizer", "anthropic", "--base-url", srv.URL, "--api-key", "bad", file)
	if code != exitFindings || !strings.Contains(errOut, "pitool: error: "+file+": summarize: anthropic: HTTP 401: ") || !strings.Contains(errOut, "invalid x-api-key") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("a failed compaction changed the file")
	}
}
