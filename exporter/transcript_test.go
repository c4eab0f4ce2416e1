package exporter

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pairingSession has one turn of two calls whose results come with a label
// and a model change between them, then a second result for the first call,
// a user message, and a result after it.
var pairingSession = strings.Join([]string{
	`{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/p"}`,
	`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-12-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"go"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"a.go","offset":3}}],"provider":"p","model":"m","stopReason":"toolUse"}}`,
	`{"type":"label","id":"l1","parentId":"a1","timestamp":"2026-12-01T00:00:02.000Z","targetId":"a1","label":"here"}`,
	`{"type":"message","id":"r1","parentId":"l1","timestamp":"2026-12-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"x"}],"isError":false}}`,
	`{"type":"model_change","id":"m1","parentId":"r1","timestamp":"2026-12-01T00:00:04.000Z","provider":"p","modelId":"n"}`,
	`{"type":"message","id":"r2","parentId":"m1","timestamp":"2026-12-01T00:00:05.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":[{"type":"text","text":"y"}],"isError":true}}`,
	`{"type":"message","id":"r3","parentId":"r2","timestamp":"2026-12-01T00:00:06.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"again"}],"isError":false}}`,
	`{"type":"message","id":"u1","parentId":"r3","timestamp":"2026-12-01T00:00:07.000Z","message":{"role":"user","content":"next"}}`,
	`{"type":"message","id":"r4","parentId":"u1","timestamp":"2026-12-01T00:00:08.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"read","content":"late","isError":false}}`,
}, "\n") + "\n"

func transcriptItems(t *testing.T, session string, opts HTMLOptions) []*Item {
	t.Helper()
	name := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(name, []byte(session), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := NewTranscript(indexFile(t, name), opts)
	if err != nil {
		t.Fatal(err)
	}
	var items []*Item
	if err := tr.Each(context.Background(), func(it *Item) bool { items = append(items, it); return true }); err != nil {
		t.Fatal(err)
	}
	return items
}

// TestTranscriptPairsResults checks which results go with their calls: the
// first result of each call among the tool results right after the turn,
// other entry types between them allowed.
func TestTranscriptPairsResults(t *testing.T) {
	items := transcriptItems(t, pairingSession, HTMLOptions{})
	byID := map[string]*Item{}
	for _, it := range items {
		byID[it.ID] = it
	}
	var calls []*ToolCall
	for _, b := range byID["a1"].Turn.Blocks {
		if b.Kind == CallBlock {
			calls = append(calls, b.Call)
		}
	}
	if len(calls) != 2 || calls[0].Result == nil || calls[0].Result.EntryID != "r1" || calls[1].Result == nil || calls[1].Result.EntryID != "r2" {
		t.Fatalf("calls not paired with r1 and r2: %+v", calls)
	}
	if calls[0].Command != "ls" || calls[1].Path != "a.go" || calls[1].Range != ":3" || !calls[1].Result.IsError {
		t.Errorf("call facts: %+v %+v", calls[0], calls[1])
	}
	for id, with := range map[string]string{"r1": "a1", "r2": "a1", "r3": "", "r4": ""} {
		it := byID[id]
		if it.ShownWith != with || it.Result == nil || (with == "") != (it.Tool != nil) {
			t.Errorf("%s: ShownWith %q, want %q (orphan call %v)", id, it.ShownWith, with, it.Tool)
		}
	}
	if p := byID["m1"].Parent; p != "a1" {
		t.Errorf("the model change's parent is shown in %q, want a1 (its parent r1 is shown with the call)", p)
	}
	if !byID["l1"].Aside || byID["m1"].Aside || byID["u1"].Aside {
		t.Errorf("aside: label %v, model change %v, user %v", byID["l1"].Aside, byID["m1"].Aside, byID["u1"].Aside)
	}
	if byID["a1"].Label != "here" || byID["a1"].Preview() != "go" {
		t.Errorf("turn label %q, preview %q", byID["a1"].Label, byID["a1"].Preview())
	}
}

// TestTranscriptFormatsAgree checks that HTML and Markdown show the same
// tool results: HTML each with its call, Markdown each where it is.
func TestTranscriptFormatsAgree(t *testing.T) {
	name := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(name, []byte(pairingSession), 0o600); err != nil {
		t.Fatal(err)
	}
	ix := indexFile(t, name)
	page := exportHTML(t, ix, HTMLOptions{})
	var md bytes.Buffer
	if err := ExportMarkdown(context.Background(), &md, ix, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="entry-r1" class="anchor"`, `id="entry-r2" class="anchor"`, `id="entry-r3" class="e k-tool"`, `id="entry-r4" class="e k-tool"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	got := md.String()
	order := []string{"**bash** `ls`", "**read** `a.go`", "*bash result:*", "*Model: p/n*", "*read ✗ error:*", "again", "next", "late"}
	at := 0
	for _, w := range order {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("markdown lacks %q after byte %d:\n%s", w, at, got)
		}
		at += i + len(w)
	}
	if strings.Contains(got, "here") {
		t.Errorf("markdown shows the label entry:\n%s", got)
	}
}

// TestTranscriptLeavesOut checks that NoThinking and NoToolOutput are
// applied by the transcript, for every format.
func TestTranscriptLeavesOut(t *testing.T) {
	session := strings.Replace(pairingSession, `{"type":"text","text":"go"}`, `{"type":"thinking","thinking":"hmm"},{"type":"text","text":"go"}`, 1)
	items := transcriptItems(t, session, HTMLOptions{NoThinking: true, NoToolOutput: true})
	for _, it := range items {
		if it.Turn != nil {
			for _, b := range it.Turn.Blocks {
				if b.Kind == ThinkingBlock {
					t.Errorf("thinking kept: %+v", b)
				}
			}
		}
		if it.Result != nil && (!it.Result.Omitted || it.Result.Text != "") {
			t.Errorf("%s: tool output kept: %+v", it.ID, it.Result)
		}
	}
}

var updateEdge = flag.Bool("update-edge", false, "rewrite testdata/edge.md and testdata/edge.html from the current exporter")

// TestEdgeGoldens renders testdata/edge.jsonl, a session of the cases where
// the formats show an entry differently (every tool, paired and orphan
// results, results past the lookahead, stop reasons, withheld thinking,
// custom content that is not text, system updates, every one-line entry), as
// Markdown and as the page's entry markup, and compares both with goldens
// written by -update-edge. It pins down what each format shows, so that a
// change to the transcript that shows anything differently is seen.
func TestEdgeGoldens(t *testing.T) {
	ix := indexFile(t, filepath.Join("testdata", "edge.jsonl"))
	for _, opts := range []HTMLOptions{{}, {AllBranches: true, NoThinking: true, NoToolOutput: true}} {
		suffix := ""
		if opts.AllBranches {
			suffix = "-all-omitted"
		}
		var md, page bytes.Buffer
		if err := ExportMarkdown(context.Background(), &md, ix, opts); err != nil {
			t.Fatal(err)
		}
		r, err := newRenderer(ix, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.entries(context.Background(), &page); err != nil {
			t.Fatal(err)
		}
		compareEdge(t, "edge"+suffix+".md", md.Bytes())
		compareEdge(t, "edge"+suffix+".html", page.Bytes())
	}
}

// spanTags are the <span> tags of the markup: the highlighter's tokens
// among them depend on timing (chroma gives up on a match after 250 ms, which
// a loaded machine can reach), so the goldens are compared without them.
var spanTags = regexp.MustCompile(`</?span[^>]*>`)

func compareEdge(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateEdge {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(spanTags.ReplaceAll(got, nil), spanTags.ReplaceAll(want, nil)) {
		t.Errorf("%s differs from the golden (go test -run TestEdgeGoldens -update-edge rewrites it):\n got  %.400q\n want %.400q", name, got, want)
	}
}
