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
