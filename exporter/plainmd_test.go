package exporter

import (
	"bytes"
	"testing"
)

// plainCases are texts at the edges of what writePlainMarkdown takes: line
// breaks and blank lines, quotes, digits at a line start, the bytes and
// words it declines at a line start and within a line.
var plainCases = []string{
	"", "\n", "\n\n\n", "a", "a\n", "\na", "a\nb", "a\n\nb", "a\n\n\n\nb\nc\n\n",
	`He said "hi" and it's fine: 100% (or so); x = y + z / 2 - 1, {ok} ^ $ # ?`,
	"2024 was a year\n10 items\n1. one\n2) two\n3 . three\n12345678901.x",
	"heading\n===\nand\n---\nmore",
	"# h\n> q\n- l\n+ l\n* l\n= e\n| t\n<d\n`c\n~f\n_u\n    code\n\tcode\n ok",
	"trailing space \nnext", "trailing two  \nnext", "inner  two spaces and   three",
	"a*b a_b a~b a`b a[b a]b a!b a<b a>b a&b a\\b a|b a@b",
	"see http://x.y and HTTPS://a.b and ftp:/c and www.example.com WWW.x.y",
	"see http and https and ftp: and www and w.w.w. and e.g. ends.",
	"mail me at a@b.co", "\x00nul", "cr\r\nlf", "del\x7f", "tab\there",
	"emoji 👩‍💻 and CJK 会话 and RTL \u202e text\nÉcole\n\u00a0nbsp start",
	"\xff invalid \xe2\x82", "ünïcödé\n\n１. fullwidth digit",
	"a | b\n--|--\n1 | 2",
	"Let me look at **pkg/cache/lru.go**:\n\n```go\nfunc f() { return \"x\" + 'y' } // <b>&amp;\n\tindented\n```",
	"a **b** c **d**. **e**, **f**: **g**? (**h**) **i**; **j**\n**k** starts\nx**y** **z**w **a b** **a*b** ** a** **a **",
	"**www.x** **http://x** **a@b** **x.www.y** **a_b** **`c`**",
	"```\nno info\n```\nafter\n```\n\n```\nempty before\n```\n",
	"text\n```js\ninterrupts\n```\nmore\n\n````\n```\nlonger fence\n````",
	"```\nunclosed", "```go\n  ```\n```", "```go\n```go\n```", "```go\n~~~\n```", "``` go\nx\n```",
	"```go\nnul \x00\n```", "```go\ncr\r\n```", "```go\n\xff\n```", "```go\n会话 ✅\n```",
	"- a\n- b **c**\n\nafter", "- a\n- b", "- a\n- b\n", "text\n- a\n\nx", "- a\ncontinued", "- a\n\n- b", "- a\n\n\n- b",
	"- a\n\n-b", "- a\n\n--- x", "-  a", "- ", "-\n- a", "- # h", "- [ ] t", "- a \n- b", "- a\n  b", "- 1. x", "- a\n* b",
	"p\n\n- a\n- b\n\n```\ncode\n```\n- c\n\nq", "- a\n```\nx\n```",
	"| file | change |\n|---|---|\n| pkg/cache/lru.go | salt **hash** verify |", "| a | b |\n|---|---|", "| a | b |\n| --- | - |\n| c | d |\n\nx",
	"| a | b |\n|---|---|\n| c |", "| a | b |\n|---|---|\n| c | d | e |", "| a | b |\n|:--|---|\n| c | d |", "| a |\n|---|\n| |",
	"| a | b |\n|---|---|\n| c | d |\nlazy", "| a | b |\n|---|\n", "| a |\n|---|\n| 1. x |", "| a |\n|---|\n| x*y |", "| a | b |\n|--|--|\n|c|d|",
	"p\n| a |\n|---|", "|a|\n|-|\n|b|\n\n- c", "| |\n|---|", "|\n|", "| a |\n|---|\n| b |\n```\nx\n```",
	"```\nx\n```\n| a |\n|---|\n| b |", "```\nx\n```\n- a", "| a |\n|---|\n\n| b |\n|---|", "| a |\n|---|\n===", "- a\n| x |\n|---|",
	"| **a** | b |\n|---|---|\n| www.x | c |", "| a | b |\n|---|---|\n| 1 | 2. |", "- **a**: b\n- c", "x\n\n```\n```\n\n\n```go\ny\n```",
	"```c++\nx\n```", "```c#\nx\n```", "```a`b\nx\n```", "```\n```", "```\n````",
}

// checkPlainMarkdown renders text with writePlainMarkdown and, when it
// takes the text, checks its HTML against goldmark and the sanitizer's. It
// reports whether the fast path took the text.
func checkPlainMarkdown(t *testing.T, m *markdown, text string, highlight bool) bool {
	t.Helper()
	m.highlight = highlight
	var fast, slow bytes.Buffer
	fast.WriteString("prefix")
	if !writePlainMarkdown(&fast, text, m.highlight) {
		if fast.String() != "prefix" {
			t.Errorf("the fast path declined %q but wrote %q", text, fast.String())
		}
		return false
	}
	m.convert(&slow, text)
	if got := fast.String()[len("prefix"):]; got != slow.String() {
		t.Errorf("markdown %q\nfast path: %q\ngoldmark:  %q", text, got, slow.String())
	}
	return true
}

// TestPlainMarkdown checks the fast path against goldmark and the sanitizer
// on the edge cases and on every text of the corpus sessions and of a
// generated one, and logs how many texts it takes.
func TestPlainMarkdown(t *testing.T) {
	m := newMarkdown()
	took := 0
	for _, text := range plainCases {
		for _, hl := range []bool{false, true} {
			if checkPlainMarkdown(t, m, text, hl) {
				took++
			}
		}
	}
	if took < 30 {
		t.Errorf("the fast path took only %d of the %d edge cases", took, 2*len(plainCases))
	}
	forSessionTexts(t, func(string, int, int) {}, func(text string) bool { return checkPlainMarkdown(t, m, text, false) })
}

// FuzzPlainMarkdown holds the fast path to goldmark and the sanitizer on
// any text.
func FuzzPlainMarkdown(f *testing.F) {
	for _, s := range append(plainCases, sanitizeCases...) {
		f.Add(s, false)
		f.Add(s, true)
	}
	m := newMarkdown()
	f.Fuzz(func(t *testing.T, text string, highlight bool) {
		checkPlainMarkdown(t, m, text, highlight)
	})
}
