package exporter

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
	"golang.org/x/net/html"
)

func exportHTML(t testing.TB, ix *jsonl.Index, opts HTMLOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ExportHTML(context.Background(), &buf, ix, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parsePage parses a page as a browser with scripting disabled would: the
// collapsed outputs inside <noscript> become elements too.
func parsePage(t testing.TB, page []byte) *html.Node {
	t.Helper()
	doc, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func walk(n *html.Node, visit func(*html.Node)) {
	visit(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, visit)
	}
}

// unsafeMarkup lists what could run script or fetch from the network:
// script elements beyond the page's own two, event handler attributes,
// javascript:, vbscript: and (but for images) data: URLs in any URL
// attribute, read as a browser reads them (C0 controls and spaces trimmed,
// tabs and line ends removed), frames, plugins and srcdoc, a meta refresh,
// and image sources that are not data:.
func unsafeMarkup(doc *html.Node) []string {
	var bad []string
	scripts := 0
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "script":
			scripts++
		case "iframe", "object", "embed", "frame", "base", "link", "form", "svg", "math":
			bad = append(bad, "<"+n.Data+">")
		}
		for _, a := range n.Attr {
			if what := unsafeAttr(n.Data, a); what != "" {
				bad = append(bad, n.Data+" "+what)
			}
		}
	})
	if scripts != 2 {
		bad = append(bad, "script elements: "+itoa(scripts))
	}
	return bad
}

// urlAttrs are the attributes whose value a browser follows as a URL.
var urlAttrs = map[string]bool{"href": true, "src": true, "action": true, "formaction": true, "xlink:href": true,
	"poster": true, "background": true, "srcset": true, "data": true, "ping": true, "cite": true}

// unsafeAttr says what is unsafe about attribute a of element el, "" when
// nothing is.
func unsafeAttr(el string, a html.Attribute) string {
	key := strings.ToLower(a.Key)
	url := browserURL(a.Val)
	switch {
	case strings.HasPrefix(key, "on"):
		return key
	case key == "style" || key == "srcdoc":
		return key
	case el == "meta" && key == "http-equiv" && strings.EqualFold(a.Val, "refresh"):
		return key + "=" + a.Val
	case !urlAttrs[key]:
		return ""
	case strings.HasPrefix(url, "javascript:") || strings.HasPrefix(url, "vbscript:"):
		return key + "=" + a.Val
	case strings.HasPrefix(url, "data:") && !strings.HasPrefix(url, "data:image/"):
		return key + "=" + a.Val
	case key == "src" && url != "" && !strings.HasPrefix(url, "data:image/"):
		return key + "=" + a.Val
	}
	return ""
}

// browserURL is v as a browser parses a URL's scheme: leading and trailing
// C0 controls and spaces trimmed, tabs and line ends removed, lower case.
func browserURL(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
	return strings.ToLower(v)
}

// TestInjectionIsInert checks, without a browser, that no payload of the
// injection session became live markup, in any mode.
func TestInjectionIsInert(t *testing.T) {
	ix := indexFile(t, "testdata/inject.jsonl")
	for _, opts := range []HTMLOptions{{}, {AllBranches: true}, {NoThinking: true, NoToolOutput: true}} {
		page := exportHTML(t, ix, opts)
		if bad := unsafeMarkup(parsePage(t, page)); len(bad) > 0 {
			t.Errorf("unsafe markup with %+v: %q", opts, bad)
		}
		if !bytes.Contains(page, []byte("&lt;script&gt;document.title=")) {
			t.Errorf("the payloads are not shown as text")
		}
	}
}

// TestEveryEntryRendered checks that every entry of the branch (or of the
// file, with AllBranches) has an element with its id, for every corpus file
// that loads.
func TestEveryEntryRendered(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*/*.jsonl"))
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			ix := indexFile(t, f)
			path, err := ix.Path(ix.ActiveLeaf())
			if errors.Is(err, jsonl.ErrCycle) {
				_, err := newRenderer(ix, HTMLOptions{})
				if !errors.Is(err, jsonl.ErrCycle) {
					t.Fatalf("a parent cycle must fail the export, got %v", err)
				}
				return
			}
			ids := ids(parsePage(t, exportHTML(t, ix, HTMLOptions{})))
			for _, i := range path {
				if !ids["entry-"+ix.ID(i)] {
					t.Errorf("entry %s (line %d) of the branch is missing", ix.ID(i), ix.LineNum(i))
				}
			}
			all := ids2(t, ix)
			for i := 0; i < ix.Len(); i++ {
				if !all["entry-"+ix.ID(i)] {
					t.Errorf("--all-branches: entry %s (line %d) is missing", ix.ID(i), ix.LineNum(i))
				}
			}
		})
	}
}

func ids2(t *testing.T, ix *jsonl.Index) map[string]bool {
	return ids(parsePage(t, exportHTML(t, ix, HTMLOptions{AllBranches: true})))
}

func ids(doc *html.Node) map[string]bool {
	out := map[string]bool{}
	walk(doc, func(n *html.Node) {
		for _, a := range n.Attr {
			if a.Key == "id" {
				out[a.Val] = true
			}
		}
	})
	return out
}

// TestMarksErrorsAndAborts checks the visible marks of failed tool calls,
// calls without a result, and errored or aborted turns.
func TestMarksErrorsAndAborts(t *testing.T) {
	cases := []struct{ file, want string }{
		{"v3/crashed.jsonl", `class="tool s-pending"`},
		{"v3/agent-run.jsonl", `class="tool s-error"`},
		{"v3/agent-run.jsonl", `<pre class="diff">`},
		{"v3/branched.jsonl", `class="image"`},
		{"v3/branched.jsonl", `class="label"`},
		{"v3/branched.jsonl", `k-compaction`},
		{"v3/linear.jsonl", `hidden-msg`},
		{"testdata/inject.jsonl", `class="stop error" role="alert"`},
	}
	for _, c := range cases {
		name := c.file
		if !strings.HasPrefix(name, "testdata") {
			name = filepath.Join(corpus, name)
		}
		page := exportHTML(t, indexFile(t, name), HTMLOptions{AllBranches: true})
		if !bytes.Contains(page, []byte(c.want)) {
			t.Errorf("%s: no %s in the page", c.file, c.want)
		}
	}
}

// TestOptions checks --leaf, --no-thinking, --no-tool-output and --title.
func TestOptions(t *testing.T) {
	ix := indexFile(t, filepath.Join(corpus, "v3/branched.jsonl"))
	leaves := ix.Leaves()
	other := leaves[0]
	page := exportHTML(t, ix, HTMLOptions{Leaf: ix.ID(other), Title: "Review <1>"})
	got := ids(parsePage(t, page))
	path, _ := ix.Path(other)
	onPath := map[int]bool{}
	for _, i := range path {
		onPath[i] = true
		if !got["entry-"+ix.ID(i)] {
			t.Errorf("--leaf: entry %s of the branch is missing", ix.ID(i))
		}
	}
	for i := 0; i < ix.Len(); i++ {
		if !onPath[i] && got["entry-"+ix.ID(i)] && ix.Type(i) != jsonl.TypeMessage {
			t.Errorf("--leaf: entry %s of another branch is shown", ix.ID(i))
		}
	}
	if !bytes.Contains(page, []byte("<title>Review &lt;1&gt;</title>")) {
		t.Error("--title is not the page title")
	}
	lin := indexFile(t, filepath.Join(corpus, "v3/linear.jsonl"))
	if p := exportHTML(t, lin, HTMLOptions{}); !bytes.Contains(p, []byte(`class="thinking"`)) {
		t.Fatal("linear.jsonl shows no thinking")
	}
	if p := exportHTML(t, lin, HTMLOptions{NoThinking: true}); bytes.Contains(p, []byte(`class="thinking"`)) {
		t.Error("--no-thinking shows thinking")
	}
	run := indexFile(t, filepath.Join(corpus, "v3/agent-run.jsonl"))
	p := exportHTML(t, run, HTMLOptions{NoToolOutput: true})
	if bytes.Contains(p, []byte("Small helpers. TODO: document sum()")) || !bytes.Contains(p, []byte("output omitted")) {
		t.Error("--no-tool-output still shows tool output")
	}
}

// TestCollapsedOutputIsDeferred checks that a long output shows a preview
// and keeps its full text inside <noscript>, inert until opened.
func TestCollapsedOutputIsDeferred(t *testing.T) {
	page := exportHTML(t, indexFile(t, "testdata/inject.jsonl"), HTMLOptions{})
	i := bytes.Index(page, []byte(`<details class="out`))
	if i < 0 {
		t.Fatal("no collapsed output")
	}
	rest := page[i:]
	end := bytes.Index(rest, []byte("</details>"))
	block := rest[:end]
	if !bytes.Contains(block, []byte("more lines")) || !bytes.Contains(block, []byte("<noscript>")) ||
		!bytes.Contains(block, []byte("line 39 ")) {
		t.Errorf("collapsed output lacks its preview, count or full text:\n%.600s", block)
	}
}

// TestExportStopsOnWriteError checks that a failing writer ends the export
// with the error instead of running on.
func TestExportStopsOnWriteError(t *testing.T) {
	ix := indexFile(t, filepath.Join(corpus, "v3/branched.jsonl"))
	err := ExportHTML(context.Background(), failWriter{}, ix, HTMLOptions{AllBranches: true})
	if err == nil {
		t.Fatal("no error from a failing writer")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ExportHTML(ctx, io.Discard, ix, HTMLOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled export returned %v", err)
	}
}

// decodingGoroutine returns the stack of a goroutine that decodes entries
// for an export, or "" when there is none. A worker that has returned its
// last result may still be on its way out (runnable in its deferred
// wg.Done) when the export returns, so a goroutine counts only if it is still
// there after a second: on a loaded machine under -race the scheduler can
// take that long to run it to its end.
func decodingGoroutine() string {
	buf := make([]byte, 1<<20)
	var found string
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		found = ""
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "exporter.(*Transcript).startDecoding") || strings.Contains(g, "internal/parallel.") {
				found = g
			}
		}
		if found == "" || time.Now().After(deadline) {
			return found
		}
	}
}

// TestExportStopsMidway stops an export of a generated 4 MB linear session
// at its first write, by cancelling its context or by failing the write: it
// must return the context's or the writer's error, and the goroutines that
// decode entries ahead must have ended by then: none reads the file after
// the export returns. (A slow Redact keeps them decoding when it stops, and
// counts the lines it is given after the export returned.)
func TestExportStopsMidway(t *testing.T) {
	name := filepath.Join(t.TempDir(), "linear.jsonl")
	writeSession(t, name, gen.Options{Seed: 3, TargetBytes: 4 << 20})
	ix := indexFile(t, name)
	for _, fail := range []bool{false, true} {
		var returned atomic.Bool
		var late atomic.Int32 // lines decoded after the export returned
		slow := func(line []byte) ([]byte, error) {
			if returned.Load() {
				late.Add(1)
			}
			time.Sleep(time.Millisecond)
			return line, nil
		}
		ctx, cancel := context.WithCancel(context.Background())
		w := &stopWriter{cancel: cancel, fail: fail}
		err := ExportHTML(ctx, w, ix, HTMLOptions{Redact: slow})
		returned.Store(true)
		cancel()
		if want := context.Canceled; !fail && !errors.Is(err, want) || fail && !errors.Is(err, errDiskFull) {
			t.Fatalf("an export stopped midway (writer failing: %v) returned %v", fail, err)
		}
		if g := decodingGoroutine(); g != "" {
			t.Fatalf("a decoding goroutine outlived the export (writer failing: %v):\n%s", fail, g)
		}
		if n := late.Load(); n > 0 {
			t.Fatalf("%d lines were decoded after the export returned (writer failing: %v)", n, fail)
		}
		if w.n >= 4<<20 {
			t.Fatalf("the stopped export wrote %d bytes: it went on to the end", w.n)
		}
	}
}

// stopWriter cancels its context on the first write, or fails every write.
type stopWriter struct {
	cancel context.CancelFunc
	fail   bool
	n      int
}

func (w *stopWriter) Write(p []byte) (int, error) {
	if w.fail {
		return 0, errDiskFull
	}
	w.cancel()
	w.n += len(p)
	return len(p), nil
}

var errDiskFull = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// FuzzExportHTML feeds arbitrary session lines to both exporters: they must
// not panic, and in the page, parsed as a browser parses it, no input may
// add anything unsafeMarkup lists (a script, an event handler, a
// javascript: URL, ...).
func FuzzExportHTML(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"user","content":"<script>x</script>"}}`))
	f.Add([]byte(`{"type":"message","id":"b","parentId":null,"timestamp":"x","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"edit","arguments":{"path":"<b>","oldText":"a\nb","newText":"a\nc"}}]}}`))
	f.Add([]byte(`{"type":"custom_message","id":"c","parentId":null,"customType":"<i>","content":"[x](javascript:alert(1))","display":false}`))
	f.Add([]byte(`{"type":"message","id":"d","parentId":null,"timestamp":"x","message":{"role":"user","content":"[a](java\tscript:x) ![i](data:text/html,x) <a href=\" javascript:x\">l</a> <img src=x onerror=y>"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		src := append([]byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}`+"\n"), line...)
		src2, _ := jsonl.Open("-", bytes.NewReader(src))
		ix, err := jsonl.BuildIndex(src2)
		if err != nil {
			return
		}
		var page bytes.Buffer
		if err := ExportHTML(context.Background(), &page, ix, HTMLOptions{AllBranches: true}); err != nil {
			return
		}
		if bad := unsafeMarkup(parsePage(t, page.Bytes())); len(bad) > 0 {
			t.Fatalf("unsafe markup %q from %q", bad, line)
		}
		ExportMarkdown(context.Background(), io.Discard, ix, HTMLOptions{})
	})
}

// TestBranchMarkers checks that --all-branches marks exactly the places
// where the page jumps back to an earlier entry: one per extra child.
func TestBranchMarkers(t *testing.T) {
	ix := indexFile(t, filepath.Join(corpus, "v3/branched.jsonl"))
	_, roots := ix.Children()
	want := len(ix.Leaves()) - len(roots)
	page := exportHTML(t, ix, HTMLOptions{AllBranches: true})
	if got := bytes.Count(page, []byte(`<div class="branch-start"`)); got != want {
		t.Errorf("%d branch markers, want %d (leaves - roots)", got, want)
	}
}

// TestParentsAreShown checks that every data-p names an entry element of
// the page, so that the script can walk a branch up to its root (tool
// results shown inside their call's entry are no elements of their own).
func TestParentsAreShown(t *testing.T) {
	ix := indexFile(t, filepath.Join(corpus, "v3/agent-run.jsonl"))
	for _, opts := range []HTMLOptions{{}, {AllBranches: true}} {
		doc := parsePage(t, exportHTML(t, ix, opts))
		sections := map[string]bool{}
		var parents []string
		walk(doc, func(n *html.Node) {
			if n.Data != "section" {
				return
			}
			for _, a := range n.Attr {
				switch a.Key {
				case "id":
					sections[a.Val] = true
				case "data-p":
					parents = append(parents, a.Val)
				}
			}
		})
		for _, p := range parents {
			if p != "" && !sections["entry-"+p] {
				t.Errorf("%+v: data-p %q names no entry element", opts, p)
			}
		}
	}
}

// TestExportIsDeterministic checks that the same session gives the same page,
// although entries are rendered concurrently.
//
// Highlighting spans are left out of the comparison: chroma gives each of
// its regular-expression matches 250 ms of wall time (a guard against
// pathological input that pitool keeps), so on a heavily loaded machine a
// match can time out and the same code be cut into different tokens. Seen
// twice under load; everything else, text included, must be identical.
func TestExportIsDeterministic(t *testing.T) {
	spans := regexp.MustCompile(`<span class="[a-z0-9 -]*">|</span>`)
	for _, f := range []string{"v3/branched.jsonl", "v3/agent-run.jsonl", "real/large-session.jsonl"} {
		ix := indexFile(t, filepath.Join(corpus, f))
		a := exportHTML(t, ix, HTMLOptions{AllBranches: true})
		b := exportHTML(t, ix, HTMLOptions{AllBranches: true})
		if !bytes.Equal(spans.ReplaceAll(a, nil), spans.ReplaceAll(b, nil)) {
			t.Errorf("%s: two exports differ", f)
		}
	}
}
