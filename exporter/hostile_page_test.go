package exporter

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// longWord is 200 KB without a space or a hyphen: a minified file, a base64
// blob or a hash chain pasted into a session.
var longWord = strings.Repeat("abcdefghij", 20<<10)

// longWordSession puts longWord in every place a page shows session text:
// the name (page title), cwd, model, a user message, assistant text and
// thinking, a tool's name, file path and output, a bash command and its
// output, a label, a custom type and its text, an error message.
func longWordSession(t *testing.T) string {
	w, _ := json.Marshal(longWord)
	q := string(w)
	usage := `"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	lines := []string{
		`{"type":"session","version":3,"id":"01a22eed-84e2-746d-a4fb-4bc77e29deed","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/` + longWord + `"}`,
		`{"type":"session_info","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":` + q + `}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":` + q + `,"timestamp":1}}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":` + q + `},{"type":"text","text":` + q + `},` +
			`{"type":"toolCall","id":"c1","name":"read","arguments":{"path":` + q + `}},{"type":"toolCall","id":"c2","name":` + q + `,"arguments":{"k":` + q + `}}],"provider":"p","model":` + q + `,` + usage + `,"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":` + q + `}],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":` + q + `,"content":[{"type":"text","text":` + q + `}],"isError":true,"timestamp":4}}`,
		`{"type":"message","id":"a0000006","parentId":"a0000005","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"bashExecution","command":` + q + `,"output":` + q + `,"exitCode":0,"cancelled":false,"truncated":false,"timestamp":5}}`,
		`{"type":"label","id":"a0000007","parentId":"a0000006","timestamp":"2026-01-01T00:00:07.000Z","targetId":"a0000002","label":` + q + `}`,
		`{"type":"custom_message","id":"a0000008","parentId":"a0000007","timestamp":"2026-01-01T00:00:08.000Z","customType":` + q + `,"content":` + q + `,"display":true}`,
		`{"type":"message","id":"a0000009","parentId":"a0000008","timestamp":"2026-01-01T00:00:09.000Z","message":{"role":"assistant","content":[],"provider":"p","model":"m",` + usage + `,"stopReason":"error","errorMessage":` + q + `,"timestamp":6}}`,
	}
	file := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// measureWidth copies page with a script that, once the page has loaded
// (and its own script has built the sidebar), writes the document's scroll
// width and the viewport's width into the DOM; the CSP is lifted for it.
func measureWidth(t *testing.T, page string, flags ...string) (scroll, viewport int) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := `<script>addEventListener("load", () => { for (const d of document.querySelectorAll("details")) d.open = true;` +
		`document.body.setAttribute("data-width", document.documentElement.scrollWidth + " " + innerWidth); });</script>`
	b = bytes.Replace(b, []byte(`<meta http-equiv="Content-Security-Policy"`), []byte(`<meta name="x-csp-removed-for-test"`), 1)
	b = bytes.Replace(b, []byte("</body>"), []byte(probe+"</body>"), 1)
	probed := filepath.Join(filepath.Dir(page), "probed.html")
	if err := os.WriteFile(probed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dom, _ := browse(t, probed, append([]string{"--dump-dom"}, flags...)...)
	m := regexp.MustCompile(`data-width="(\d+) (\d+)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatal("the width probe did not run")
	}
	scroll, _ = strconv.Atoi(string(m[1]))
	viewport, _ = strconv.Atoi(string(m[2]))
	return scroll, viewport
}

// TestBrowserLongWordStaysInViewport exports a session with a 200 KB word
// everywhere, with and without every branch, and checks in Chromium, at a
// desktop and a narrow width, that the page is no wider than the window: the
// word wraps instead of widening the page (it made it 1.7 million px wide).
func TestBrowserLongWordStaysInViewport(t *testing.T) {
	dir := t.TempDir()
	session := longWordSession(t)
	for _, c := range []struct {
		opts HTMLOptions
		size string
	}{{HTMLOptions{}, "1280,900"}, {HTMLOptions{AllBranches: true}, "500,844"}} { // 500: headless chromium's narrowest
		page := exportTo(t, dir, session, c.opts)
		scroll, viewport := measureWidth(t, page, "--window-size="+c.size)
		t.Logf("window %s, all branches %v: page %d px wide, viewport %d px", c.size, c.opts.AllBranches, scroll, viewport)
		if scroll > viewport {
			t.Errorf("window %s, all branches %v: the page is %d px wide, the viewport %d px", c.size, c.opts.AllBranches, scroll, viewport)
		}
	}
}
