package exporter

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/redact"
)

// TestExportRedacts exports the planted-secrets session with the redact
// package's RedactLine and checks that every planted value the redact
// package removes from the session is absent from the page and Markdown too.
func TestExportRedacts(t *testing.T) {
	src := filepath.Join(corpus, "secrets/session.jsonl")
	r, err := redact.New(redact.Options{Salt: "test"})
	if err != nil {
		t.Fatal(err)
	}
	redactLine := func(line []byte) ([]byte, error) {
		out, _, err := r.RedactLine(line)
		return out, err
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var redacted bytes.Buffer
	for _, l := range bytes.Split(raw, []byte("\n")) {
		out, _ := redactLine(l)
		redacted.Write(out)
	}
	ix := indexFile(t, src)
	var page, md bytes.Buffer
	opts := HTMLOptions{AllBranches: true, Redact: redactLine}
	if err := ExportHTML(context.Background(), &page, ix, opts); err != nil {
		t.Fatal(err)
	}
	if err := ExportMarkdown(context.Background(), &md, ix, opts); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, v := range plantedValues(t) {
		inSource := bytes.Contains(raw, []byte(v))
		if !inSource || bytes.Contains(redacted.Bytes(), []byte(v)) {
			continue // not in this form in the file, or kept by the redact rules
		}
		checked++
		for _, form := range []string{v, html.EscapeString(v)} {
			if bytes.Contains(page.Bytes(), []byte(form)) || bytes.Contains(md.Bytes(), []byte(form)) {
				t.Errorf("planted secret %.12s… is in the redacted export", v)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d planted values checked", checked)
	}
	if !bytes.Contains(page.Bytes(), []byte("secrets redacted")) {
		t.Error("the page does not say it was redacted")
	}
}

func plantedValues(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, "secrets/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Planted []struct{ Value string } `json:"planted"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range m.Planted {
		out = append(out, p.Value)
	}
	return out
}

// TestExportRedactsTheSystemPrompt plants a token in a system prompt's text
// and in one of its sections: the redacted page and Markdown keep neither.
// Until the exporter read each message from the redacted entry, the page
// showed the system prompt from the line as written.
func TestExportRedactsTheSystemPrompt(t *testing.T) {
	const token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	raw, err := os.ReadFile(filepath.Join(corpus, "secrets/session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	planted := 0
	var out bytes.Buffer
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if planted == 0 && bytes.Contains(l, []byte(`"role":"system"`)) {
			l = plantInSystemPrompt(t, l, token)
			planted++
		}
		out.Write(l)
		out.WriteByte('\n')
	}
	if planted == 0 {
		t.Fatal("the session has no system prompt")
	}
	src := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(src, bytes.TrimSuffix(out.Bytes(), []byte("\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := redact.New(redact.Options{Salt: "test"})
	if err != nil {
		t.Fatal(err)
	}
	opts := HTMLOptions{AllBranches: true, Redact: func(line []byte) ([]byte, error) {
		out, _, err := r.RedactLine(line)
		return out, err
	}}
	ix := indexFile(t, src)
	var page, md bytes.Buffer
	if err := ExportHTML(context.Background(), &page, ix, opts); err != nil {
		t.Fatal(err)
	}
	if err := ExportMarkdown(context.Background(), &md, ix, opts); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"page": page.Bytes(), "Markdown": md.Bytes()} {
		if bytes.Contains(b, []byte(token[:12])) {
			t.Errorf("the redacted %s shows the system prompt's token", name)
		}
	}
}

// plantInSystemPrompt returns the system message line with token in its
// content and in its first section.
func plantInSystemPrompt(t *testing.T, line []byte, token string) []byte {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(line, &e); err != nil {
		t.Fatal(err)
	}
	msg := e["message"].(map[string]any)
	msg["content"] = "the deploy token is " + token
	if sections, ok := msg["sections"].(map[string]any); ok {
		for k, v := range sections {
			if s, ok := v.(string); ok {
				sections[k] = s + " token " + token
				break
			}
		}
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
