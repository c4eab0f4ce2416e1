package compactor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/safefile"
)

// appender is a summarizer during whose work a live Pi appends to the file.
type appender struct {
	file string
	line string
	done bool
}

func (a *appender) Summarize(ctx context.Context, req Request) (Response, error) {
	if a.done {
		return Response{Text: "## Goal"}, nil
	}
	a.done = true
	f, err := os.OpenFile(a.file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return Response{}, err
	}
	defer f.Close()
	_, err = f.WriteString(a.line)
	return Response{Text: "## Goal"}, err
}

func TestConcurrentAppendIsSkipped(t *testing.T) {
	file := copyToTemp(t, filepath.Join(corpus, "v3", "linear.jsonl"))
	orig, _ := os.ReadFile(file)
	live := `{"type":"message","id":"live0001","parentId":null,"timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"
	out := CompactFile(context.Background(), file, fixedOptions("c0ffee01", time.Now(), &appender{file: file, line: live}))
	if out.Status != Skipped || !errors.Is(out.Err, safefile.ErrChanged) {
		t.Fatalf("status %s (%v), want skipped because the file changed", out.Status, out.Err)
	}
	now, _ := os.ReadFile(file)
	if !bytes.Equal(now, append(orig, live...)) {
		t.Fatalf("file is not the original plus the live append")
	}
}

func TestLockedFileIsSkipped(t *testing.T) {
	file := copyToTemp(t, filepath.Join(corpus, "v3", "linear.jsonl"))
	orig, _ := os.ReadFile(file)
	unlock, err := safefile.Lock(file)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	out := CompactFile(context.Background(), file, fixedOptions("c0ffee01", time.Now(), Extractive{}))
	if out.Status != Skipped || !errors.Is(out.Err, safefile.ErrLocked) {
		t.Fatalf("status %s (%v), want skipped because the file is locked", out.Status, out.Err)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, orig) {
		t.Fatal("a locked file was changed")
	}
}

func TestCancelledBeforeWriteLeavesFile(t *testing.T) {
	file := copyToTemp(t, filepath.Join(corpus, "v3", "linear.jsonl"))
	orig, _ := os.ReadFile(file)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := CompactFile(ctx, file, fixedOptions("c0ffee01", time.Now(), Extractive{}))
	if out.Status != Failed {
		t.Fatalf("status %s, want failed", out.Status)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, orig) {
		t.Fatal("a cancelled compaction changed the file")
	}
}

func TestExtractiveSummaryFormat(t *testing.T) {
	file := filepath.Join(corpus, "v3", "agent-run.jsonl")
	opts := fixedOptions("x", time.Now(), Extractive{})
	opts.Plan, opts.Messages, opts.KeepRecentTokens = true, true, 500
	out := CompactFile(context.Background(), file, opts)
	if out.Prep == nil {
		t.Fatalf("no preparation: %s", out.Reason)
	}
	res, err := Compact(context.Background(), out.Prep, Extractive{}, "focus on tests", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Goal\nMaintain the tiny math project", "- Is there a package lock", "- Focus: focus on tests", "### Blocked\n- bash: ", "### Done\n", "## Next Steps\n1. ",
		"**Turn Context (split turn):**\n\n## Original Request\n", "<modified-files>\nsrc/math.js\n</modified-files>"} {
		if !bytes.Contains([]byte(res.Summary), []byte(want)) {
			t.Errorf("summary lacks %q:\n%s", want, res.Summary)
		}
	}
	if n := bytes.Count([]byte(res.Summary), []byte("Maintain the tiny math project")); n != 1 {
		t.Errorf("the previous goal appears %d times, want once", n)
	}
	again, _ := Compact(context.Background(), out.Prep, Extractive{}, "focus on tests", file)
	if again.Summary != res.Summary {
		t.Error("the extractive summary is not deterministic")
	}
}
