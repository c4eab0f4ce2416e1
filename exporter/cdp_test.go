package exporter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cdp is a minimal DevTools-protocol client over chromium's
// --remote-debugging-pipe (JSON messages ended by NUL on fds 3 and 4): just
// enough to load a page with scripting disabled and read its DOM, which the
// command-line --dump-dom cannot do.
type cdp struct {
	cmd     *exec.Cmd
	in      *os.File
	out     *bufio.Reader
	next    int
	session string
}

func startCDP(t *testing.T, ctx context.Context) *cdp {
	t.Helper()
	toChrome, in, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	out, fromChrome, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium(t), "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+profileDir(t), "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome}
	inOwnProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toChrome.Close()
	fromChrome.Close()
	c := &cdp{cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		in.Close()
		killProcessGroup(cmd)
		cmd.Wait()
	})
	return c
}

// call sends one command (to the attached page when there is one) and
// returns its result, skipping events.
func (c *cdp) call(method string, params any) (json.RawMessage, error) {
	c.next++
	msg := map[string]any{"id": c.next, "method": method, "params": params}
	if c.session != "" {
		msg["sessionId"] = c.session
	}
	b, _ := json.Marshal(msg)
	if _, err := c.in.Write(append(b, 0)); err != nil {
		return nil, err
	}
	for {
		raw, err := c.out.ReadBytes(0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(raw[:len(raw)-1], &reply) != nil || reply.ID != c.next {
			continue
		}
		if reply.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, reply.Error)
		}
		return reply.Result, nil
	}
}

// domWithoutScripts loads file with script execution disabled and returns
// the document's outer HTML.
func domWithoutScripts(t *testing.T, file string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startCDP(t, ctx)
	var target struct{ TargetID string }
	var attached struct{ SessionID string }
	abs, _ := filepath.Abs(file)
	steps := []struct {
		method string
		params any
		into   any
	}{
		{"Target.createTarget", map[string]any{"url": "about:blank"}, &target},
		{"Target.attachToTarget", nil, &attached},
		{"Emulation.setScriptExecutionDisabled", map[string]any{"value": true}, nil},
		{"Page.navigate", map[string]any{"url": "file://" + abs}, nil},
	}
	for _, s := range steps {
		if s.method == "Target.attachToTarget" {
			s.params = map[string]any{"targetId": target.TargetID, "flatten": true}
		}
		res, err := c.call(s.method, s.params)
		if err != nil {
			t.Fatal(err)
		}
		if s.into != nil {
			json.Unmarshal(res, s.into)
		}
		if s.method == "Target.attachToTarget" {
			c.session = attached.SessionID
		}
	}
	return waitForDOM(t, c)
}

// waitForDOM polls the document until it has loaded completely (its closing
// footer is there), for at most 90 seconds.
func waitForDOM(t *testing.T, c *cdp) string {
	t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); {
		res, err := c.call("DOM.getDocument", map[string]any{"depth": 1})
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		var doc struct{ Root struct{ NodeID int } }
		json.Unmarshal(res, &doc)
		res, err = c.call("DOM.getOuterHTML", map[string]any{"nodeId": doc.Root.NodeID})
		if err != nil { // the document was replaced while navigating: ask again
			time.Sleep(50 * time.Millisecond)
			continue
		}
		var html struct{ OuterHTML string }
		json.Unmarshal(res, &html)
		if strings.Contains(html.OuterHTML, "</footer>") {
			return html.OuterHTML
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the page did not finish loading")
	return ""
}

// event reads messages until an event of the attached page named method
// whose params contain want, and returns when it came.
func (c *cdp) event(method, want string) (time.Time, error) {
	for {
		raw, err := c.out.ReadBytes(0)
		if err != nil {
			return time.Time{}, err
		}
		var ev struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(raw[:len(raw)-1], &ev) == nil && ev.Method == method && strings.Contains(string(ev.Params), want) {
			return time.Now(), nil
		}
	}
}

// TestFirstPaint measures, for the page named by $PITOOL_PAINT_HTML, how
// long Chromium takes to the first contentful paint and to the load event.
// It is a measurement for bench/README.md, not a pass/fail check.
func TestFirstPaint(t *testing.T) {
	page := os.Getenv("PITOOL_PAINT_HTML")
	if page == "" {
		t.Skip("set PITOOL_PAINT_HTML to a page to measure")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := startCDP(t, ctx)
	res, err := c.call("Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	var target struct{ TargetID string }
	json.Unmarshal(res, &target)
	res, err = c.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		t.Fatal(err)
	}
	var attached struct{ SessionID string }
	json.Unmarshal(res, &attached)
	c.session = attached.SessionID
	for _, m := range []string{"Page.enable", "Page.setLifecycleEventsEnabled"} {
		if _, err := c.call(m, map[string]any{"enabled": true}); err != nil {
			t.Fatal(err)
		}
	}
	abs, _ := filepath.Abs(page)
	start := time.Now()
	if _, err := c.call("Page.navigate", map[string]any{"url": "file://" + abs}); err != nil {
		t.Fatal(err)
	}
	fcp, err := c.event("Page.lifecycleEvent", `"firstContentfulPaint"`)
	if err != nil {
		t.Fatal(err)
	}
	load, err := c.event("Page.lifecycleEvent", `"load"`)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: first contentful paint %.2fs, load %.2fs", page, fcp.Sub(start).Seconds(), load.Sub(start).Seconds())
}
