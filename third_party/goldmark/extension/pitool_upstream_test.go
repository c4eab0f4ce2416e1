package extension_test

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	upstream "github.com/yuin/goldmark/extension"

	"github.com/pitool/pitool/third_party/goldmark/extension"
)

// TestRendersAsUpstream: GFM from the copy renders markdown that reaches
// its lazy regexps (links found in text, table delimiter rows, task list
// items) as upstream's GFM does.
func TestRendersAsUpstream(t *testing.T) {
	src := []byte("see www.example.com/a?b=1 and https://example.org:8080/x#y, ftp://f.example.net.\n" +
		"mail a@example.com; not a link: www.x, http://\n\n" +
		"| left | right | center | none |\n|:-----|------:|:------:|------|\n| a | b | c | d |\n\n" +
		"- [ ] open\n- [x] done\n- [X] Done too\n- [y] not a task\n\n~~gone~~ and <b>raw</b>\n")
	var got, want bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(src, &got); err != nil {
		t.Fatal(err)
	}
	if err := goldmark.New(goldmark.WithExtensions(upstream.GFM)).Convert(src, &want); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("copy renders\n%s\nupstream\n%s", got.String(), want.String())
	}
	for _, part := range []string{`href="http://www.example.com/a?b=1"`, `<th style="text-align:right">`, `checked=""`} {
		if !bytes.Contains(got.Bytes(), []byte(part)) {
			t.Errorf("rendered page lacks %s:\n%s", part, got.String())
		}
	}
}
