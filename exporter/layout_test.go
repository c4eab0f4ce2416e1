package exporter

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// overlapProbe lists every entry whose timestamp (the floated .meta) lies
// over a bordered block of the same entry: a tool box, code, thinking, a
// folded output, a table or a quote.
const overlapProbe = `(() => {
  const bad = [];
  const hit = (a, b) => !(a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom);
  for (const m of document.querySelectorAll('section.e > .meta')) {
    const r = m.getBoundingClientRect();
    if (!r.width) continue;
    for (const b of m.parentElement.querySelectorAll('.tool, pre, .thinking, details.out, table, blockquote')) {
      const s = b.getBoundingClientRect();
      if (s.width && hit(r, s)) bad.push(m.parentElement.id + ' over ' + b.tagName + '.' + b.className);
    }
  }
  return bad.join('\n');
})()`

// evaluate loads file in headless chromium, waits for the page to finish
// loading, and returns the value of a JavaScript expression evaluated in it.
func evaluate(t *testing.T, file, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startCDP(t, ctx)
	var target struct{ TargetID string }
	if err := c.callInto(&target, "Target.createTarget", map[string]any{"url": "about:blank"}); err != nil {
		t.Fatal(err)
	}
	var attached struct{ SessionID string }
	if err := c.callInto(&attached, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}); err != nil {
		t.Fatal(err)
	}
	c.session = attached.SessionID
	abs, _ := filepath.Abs(file)
	if _, err := c.call("Page.navigate", map[string]any{"url": "file://" + abs}); err != nil {
		t.Fatal(err)
	}
	waitForDOM(t, c)
	var res struct {
		Result struct{ Value json.RawMessage }
	}
	if err := c.callInto(&res, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}); err != nil {
		t.Fatal(err)
	}
	var s string
	if err := json.Unmarshal(res.Result.Value, &s); err != nil {
		t.Fatalf("%s: %v", res.Result.Value, err)
	}
	return s
}

// TestBrowserTimestampsClearBlocks: an entry's timestamp never overlaps the
// border of a block in the entry (a tool result or a command the user ran
// starts with a bordered box, which the floated timestamp covered).
func TestBrowserTimestampsClearBlocks(t *testing.T) {
	dir := t.TempDir()
	for _, file := range []string{"v3/agent-run.jsonl", "v3/branched.jsonl", "real/large-session.jsonl"} {
		page := exportTo(t, dir, filepath.Join(corpus, file), HTMLOptions{AllBranches: true})
		if bad := evaluate(t, page, overlapProbe); bad != "" {
			t.Errorf("%s: timestamps over block borders:\n%s", file, strings.TrimSpace(bad))
		}
	}
}
