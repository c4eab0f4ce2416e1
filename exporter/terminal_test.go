package exporter

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// showCorpus renders a corpus session as ShowTerminal does.
func showCorpus(t *testing.T, file string, opts HTMLOptions, to TerminalOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := ShowTerminal(context.Background(), &buf, indexFile(t, filepath.Join(corpus, file)), opts, to); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestShowFitsWidth: no line is wider than the terminal, in colour or not,
// folded or full, whatever the session holds (code, tables, long lines).
func TestShowFitsWidth(t *testing.T) {
	for _, file := range []string{"v3/agent-run.jsonl", "real/large-session.jsonl"} {
		for _, to := range []TerminalOptions{{Width: 80}, {Width: 80, Full: true}, {Width: 50, Color: true, Full: true}, {Width: 200}} {
			out := showCorpus(t, file, HTMLOptions{AllBranches: true}, to)
			for i, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > to.Width {
					t.Errorf("%s %+v: line %d is %d columns wide: %q", file, to, i+1, w, l)
					break
				}
			}
		}
	}
}

// TestShowFolds: a result folds to its first line and a count, thinking to
// its first line; Full shows them whole.
func TestShowFolds(t *testing.T) {
	folded := showCorpus(t, "v3/agent-run.jsonl", HTMLOptions{}, TerminalOptions{Width: 100})
	full := showCorpus(t, "v3/agent-run.jsonl", HTMLOptions{}, TerminalOptions{Width: 100, Full: true})
	if !strings.Contains(folded, "    ↳ export function add(a, b) { (13 more lines)\n") {
		t.Errorf("the read result is not folded to its first line and a count:\n%s", folded)
	}
	if strings.Contains(full, "more line") || !strings.Contains(full, "      export function mean(xs) {\n") {
		t.Errorf("--full does not show the read result whole:\n%s", full)
	}
	if strings.Contains(folded, "\x1b") {
		t.Error("colour without Color")
	}
}
