package exporter

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/termtext"
	xhtml "golang.org/x/net/html"
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

// spoofedNames are file names that a bidi control makes read as another
// name: invoice<RLO>fdp.exe shows as invoiceexe.pdf.
var spoofedNames = []string{"invoice\u202efdp.exe", "src/\u2067cod.go\u2069.sh", "a\u200fb\u202ac\u202bd\u202ce\u202df\u2066g\u2068h", "two\nlines.txt"}

// TestHTMLShowsBidiControlsInNames exports a session whose tool calls name
// spoofing files (and a tool with a spoofing name) and checks every path and
// tool name on the page: no bidi control or newline is left to act, each is
// shown as an escape (\u202e), and the name is otherwise intact. The
// Markdown export shows the paths the same way.
func TestHTMLShowsBidiControlsInNames(t *testing.T) {
	var calls, results []string
	for i, name := range spoofedNames {
		n, _ := json.Marshal(name)
		id := "c" + strconv.Itoa(i)
		calls = append(calls, `{"type":"toolCall","id":"`+id+`","name":"read","arguments":{"path":`+string(n)+`}}`)
		results = append(results, `{"type":"message","id":"r000000`+strconv.Itoa(i)+`","parentId":"PARENT","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"toolResult","toolCallId":"`+id+`","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false,"timestamp":3}}`)
	}
	calls = append(calls, `{"type":"toolCall","id":"cx","name":"safe\u202eexe.txt","arguments":{}}`)
	lines := []string{
		`{"type":"session","version":3,"id":"01a22eed-84e2-746d-a4fb-4bc77e29deed","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"go","timestamp":1}}`,
		`{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[` + strings.Join(calls, ",") +
			`],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":2}}`,
	}
	parent := "a0000002"
	for i, r := range results {
		lines = append(lines, strings.Replace(r, "PARENT", parent, 1))
		parent = "r000000" + strconv.Itoa(i)
	}
	file := filepath.Join(t.TempDir(), "bidi.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var page, md bytes.Buffer
	if err := ExportHTML(context.Background(), &page, indexFile(t, file), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ExportMarkdown(context.Background(), &md, indexFile(t, file), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range spoofedNames[:3] {
		if !strings.Contains(md.String(), "`"+termtext.Visible(name)+"`") {
			t.Errorf("the Markdown does not show %q as %q", name, termtext.Visible(name))
		}
	}
	if i := strings.IndexFunc(md.String(), isBidiOrBreakExceptLF); i >= 0 {
		t.Errorf("the Markdown holds %U", []rune(md.String()[i:])[0])
	}
	shown := namesOnPage(t, page.Bytes())
	for _, want := range append(spoofedNames, "safe\u202eexe.txt") {
		visible := termtext.Visible(want)
		if !shown[visible] {
			t.Errorf("%q is not on the page as %q; names shown: %v", want, visible, shown)
		}
	}
	for name := range shown {
		if i := strings.IndexFunc(name, isBidiOrBreak); i >= 0 {
			t.Errorf("name %q on the page holds %U", name, []rune(name[i:])[0])
		}
	}
}

// namesOnPage returns the text of every path and tool name on the page.
func namesOnPage(t *testing.T, page []byte) map[string]bool {
	t.Helper()
	doc, err := xhtml.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		for _, a := range n.Attr {
			if a.Key == "class" && (a.Val == "path" || a.Val == "tool-name") && n.FirstChild != nil {
				names[n.FirstChild.Data] = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return names
}

// isBidiOrBreakExceptLF is isBidiOrBreak but for LF, which ends Markdown's
// lines.
func isBidiOrBreakExceptLF(r rune) bool { return r != '\n' && isBidiOrBreak(r) }

// isBidiOrBreak reports the Unicode bidi controls and line breaks.
func isBidiOrBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x061c || r == 0x200e || r == 0x200f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
