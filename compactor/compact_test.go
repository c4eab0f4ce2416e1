package compactor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// stub is a summarizer whose text depends only on the request, so that the
// goldens of compacted files do not change with the extractive summarizer.
type stub struct{}

func (stub) Summarize(_ context.Context, req Request) (Response, error) {
	return Response{Text: fmt.Sprintf("## Goal\nstub summary of %d messages (kind %d)", len(req.Messages), req.Kind),
		Usage: &Usage{Input: len(req.Prompt) / 4, Output: 10}}, nil
}

// recorder wraps a summarizer and keeps the requests it saw.
type recorder struct {
	Summarizer
	reqs []Request
}

func (r *recorder) Summarize(ctx context.Context, req Request) (Response, error) {
	r.reqs = append(r.reqs, req)
	return r.Summarizer.Summarize(ctx, req)
}

func fixedOptions(id string, at time.Time, s Summarizer) Options {
	return Options{Settings: Settings{ReserveTokens: 16384, KeepRecentTokens: 1000}, Force: true, Summarizer: s,
		Now: func() time.Time { return at }, NewID: func(func(string) bool) string { return id }}
}

func copyToTemp(t *testing.T, src string) string {
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func contextOf(t *testing.T, file string) (ctxJSON []byte, noResults int) {
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	proj, err := ix.ProjectLeaf(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	model, _ := jsonl.LastAssistantModel(proj.Messages)
	provider := jsonl.TransformMessages(jsonl.ConvertToLlm(proj.Messages), model)
	return proj.Context.AppendJSON(nil), bytes.Count(jsonl.AppendObjects(nil, provider), []byte(`"text":"`+jsonl.NoResultText+`"`))
}

// compactOnce compacts file, checks that exactly one complete line was
// appended, and compares pitool's context with pi-ref's golden for it.
func compactOnce(t *testing.T, file, golden string, opts Options) Outcome {
	before, _ := os.ReadFile(file)
	_, noBefore := contextOf(t, file)
	out := CompactFile(context.Background(), file, opts)
	if out.Status != Compacted {
		t.Fatalf("%s: status %s: %s", golden, out.Status, out.Reason)
	}
	after, _ := os.ReadFile(file)
	added := after[len(before):]
	if !bytes.HasPrefix(after, before) || bytes.Count(added, []byte("\n")) != 1 || added[len(added)-1] != '\n' {
		t.Fatalf("file was not extended by exactly one line: %q", clip(added))
	}
	checkEntryShape(t, added)
	if *testref.Update {
		writeFile(t, golden, piRef(t, "context", file))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got, noAfter := contextOf(t, file)
	if !bytes.Equal(got, bytes.TrimSpace(want)) {
		t.Errorf("pitool context differs from pi-ref context after compaction\n got: %s\nwant: %s", clip(got), clip(want))
	}
	if noAfter > noBefore {
		t.Errorf("compaction split a tool call from its result: %d synthetic results, %d before", noAfter, noBefore)
	}
	return out
}

func checkEntryShape(t *testing.T, line []byte) {
	obj, err := jsonl.ParseObject(bytes.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	want := "type id parentId timestamp summary firstKeptEntryId tokensBefore details usage fromHook"
	if obj.Has("systemMessage") {
		want += " systemMessage"
	}
	if got := strings.Join(obj.Keys, " "); got != want {
		t.Errorf("entry keys %q, want %q (Pi's appendCompaction order)", got, want)
	}
}

func TestCompactThenChain(t *testing.T) {
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	// keep is small enough that each half still has something before the cut.
	keep := map[string]int{"linear": 1000, "crashed": 1000, "agent-run": 200, "branched": 1000}
	for _, name := range []string{"linear", "crashed", "agent-run", "branched"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(corpus, "v3", name+".jsonl")
			file, rest := copyHalf(t, src, name != "branched")
			rec := &recorder{Summarizer: stub{}}
			opts := fixedOptions("c0ffee01", at, rec)
			opts.KeepRecentTokens = keep[name]
			first := compactOnce(t, file, filepath.Join("testdata", "after", name+".context.json"), opts)
			if first.TokensAfter >= first.TokensBefore || first.KeptEntries == 0 {
				t.Errorf("tokens %d → %d, kept %d", first.TokensBefore, first.TokensAfter, first.KeptEntries)
			}
			if rest == nil {
				return
			}
			continueAfter(t, file, "c0ffee01", rest)
			rec.reqs = nil
			opts = fixedOptions("c0ffee02", at.Add(time.Hour), rec)
			opts.KeepRecentTokens = keep[name]
			compactOnce(t, file, filepath.Join("testdata", "after", name+".chained.context.json"), opts)
			checkChained(t, file, rec.reqs)
		})
	}
}

// copyHalf copies the first half of a linear session to a temporary file and
// returns the other half's lines; with half false it copies the whole file.
func copyHalf(t *testing.T, src string, half bool) (string, [][]byte) {
	file := copyToTemp(t, src)
	if !half {
		return file, nil
	}
	data, _ := os.ReadFile(file)
	lines := bytes.SplitAfter(data, []byte("\n"))
	m := len(lines) / 2
	if err := os.WriteFile(file, bytes.Join(lines[:m], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, lines[m:]
}

// continueAfter appends the rest of a session as Pi would have written it
// after the compaction: its first entry becomes the compaction's child.
func continueAfter(t *testing.T, file, compactionID string, rest [][]byte) {
	first, err := jsonl.ParseObject(bytes.TrimSpace(rest[0]))
	if err != nil {
		t.Fatal(err)
	}
	first.Set("parentId", jsonl.QuoteString(compactionID))
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(append(first.AppendJSON(nil), '\n'))
	f.Write(bytes.Join(rest[1:], nil))
}

// checkChained checks that the second compaction summarized with the first
// one's summary as <previous-summary>.
func checkChained(t *testing.T, file string, reqs []Request) {
	if len(reqs) == 0 || reqs[0].Kind != History {
		t.Fatalf("chained compaction made no history request (%d requests)", len(reqs))
	}
	h := reqs[0]
	firstSummary := h.PreviousSummary
	if firstSummary == "" || !strings.Contains(h.Prompt, "<previous-summary>\n"+firstSummary+"\n</previous-summary>") ||
		!strings.HasSuffix(h.Prompt, UpdateSummarizationPrompt) {
		t.Errorf("chained compaction did not send the previous summary: %q", clip([]byte(h.Prompt)))
	}
}

// TestLiveExtractiveAgreesWithPiRef compacts each v3 file with the real
// extractive summarizer and compares pitool's context of the result with
// pi-ref's, run live. It needs pi-ref: set PITOOL_PIREF=1.
func TestLiveExtractiveAgreesWithPiRef(t *testing.T) {
	if os.Getenv("PITOOL_PIREF") != "1" {
		t.Skip("set PITOOL_PIREF=1 to run pi-ref live")
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "v3", "*.jsonl"))
	for _, src := range files {
		file := copyToTemp(t, src)
		opts := fixedOptions(jsonl.GenerateID(nil, func(string) bool { return false }), time.Now(), Extractive{})
		opts.KeepRecentTokens = 300
		if out := CompactFile(context.Background(), file, opts); out.Status != Compacted {
			t.Fatalf("%s: %s %s", src, out.Status, out.Reason)
		}
		got, _ := contextOf(t, file)
		if want := bytes.TrimSpace(piRef(t, "context", file)); !bytes.Equal(got, want) {
			t.Errorf("%s: pitool context differs from pi-ref's after an extractive compaction", src)
		}
	}
}
