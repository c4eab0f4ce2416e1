package exporter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"
)

// markupPayloads are values that become elements when a Markdown renderer
// that allows raw HTML reads them unescaped: tags, an event handler, a
// javascript: link, emphasis, code, an image, an entity, and a blank line
// (CR CR) that would end a code span's paragraph and let an HTML block in.
var markupPayloads = []string{
	`<img src=x onerror=alert(1)>`,
	`<script>alert(1)</script>`,
	"x](javascript:alert(1)) [y](javascript:alert(2))",
	"**bold** _em_ `code` ~~del~~ ![i](data:x) &lt;b&gt; <b>b</b>",
	"<iframe src=javascript:alert(3)></iframe>",
	"line\r\r<script>alert(4)</script>",
	"x\n\n<svg onload=alert(5)>",
}

// markupSession is a session whose title, cwd, model (in a model change and
// on an assistant turn), tool names, grep filter, error message and custom
// type are value(i) for i = 0…; its conversation text is plain.
func markupSession(value func(i int) string) []byte {
	q := func(i int) string { b, _ := json.Marshal(value(i)); return string(b) }
	lines := []string{
		`{"type":"session","version":3,"id":"01a22eed-84e2-746d-a4fb-4bc77e29deed","timestamp":"2026-01-01T00:00:00.000Z","cwd":` + q(0) + `}`,
		`{"type":"session_info","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":` + q(1) + `}`,
		`{"type":"model_change","id":"a0000002","parentId":"a0000001","timestamp":"2026-01-01T00:00:02.000Z","provider":"p","modelId":` + q(2) + `}`,
		`{"type":"message","id":"a0000003","parentId":"a0000002","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"hello","timestamp":1}}`,
		`{"type":"message","id":"a0000004","parentId":"a0000003","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"},` +
			`{"type":"toolCall","id":"c1","name":` + q(3) + `,"arguments":{"k":"v"}},` +
			`{"type":"toolCall","id":"c2","name":"grep","arguments":{"pattern":"p","glob":` + q(4) + `}}],` +
			`"provider":"p","model":` + q(5) + `,"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":2}}`,
		`{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":` + q(6) + `,"content":[{"type":"text","text":"out"}],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"a0000006","parentId":"a0000005","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"grep","content":[{"type":"text","text":"out"}],"isError":false,"timestamp":4}}`,
		`{"type":"message","id":"a0000007","parentId":"a0000006","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":` + q(7) + `,"timestamp":5}}`,
		`{"type":"custom_message","id":"a0000008","parentId":"a0000007","timestamp":"2026-01-01T00:00:08.000Z","customType":` + q(8) + `,"content":"note","display":true}`,
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// renderedTags exports session as Markdown, renders it with goldmark
// allowing raw HTML (as GitHub-like renderers without a sanitizer do), and
// returns the element names of the page in document order.
func renderedTags(t *testing.T, session []byte) ([]string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(file, session, 0o600); err != nil {
		t.Fatal(err)
	}
	var md, page bytes.Buffer
	if err := ExportMarkdown(context.Background(), &md, indexFile(t, file), HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe())).Convert(md.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	var tags []string
	z := xhtml.NewTokenizer(bytes.NewReader(page.Bytes()))
	for tt := z.Next(); tt != xhtml.ErrorToken; tt = z.Next() {
		if tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken {
			name, _ := z.TagName()
			tags = append(tags, string(name))
		}
	}
	return tags, md.String()
}

// TestMarkdownNamesStayText checks that no element comes from the session's
// names: with every payload in every named field, the rendered Markdown has
// exactly the elements it has with plain words there.
func TestMarkdownNamesStayText(t *testing.T) {
	plain, _ := renderedTags(t, markupSession(func(i int) string { return fmt.Sprintf("plain%d", i) }))
	for k, payload := range markupPayloads {
		got, md := renderedTags(t, markupSession(func(int) string { return payload }))
		if strings.Join(got, " ") != strings.Join(plain, " ") {
			t.Errorf("payload %d %q: rendered elements\n  %v\nwant\n  %v\nmarkdown:\n%s", k, payload, got, plain, md)
		}
	}
}
