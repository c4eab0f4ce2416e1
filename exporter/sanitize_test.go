package exporter

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/jsonl"
)

// sanitizeCases are markdown texts at the edges of what the fast path
// accepts: quotes, references, raw HTML, links, images, tables with
// alignment, lists that start elsewhere, task lists, code, CR and NUL.
var sanitizeCases = []string{
	`He said "hi" and it's fine`,
	"a & b < c > d &amp; &copy; &#169; &#x27; &nbsp;",
	"# Title\n\n## Sub\n\n> quoted 'text'\n>> nested\n\n---\n\n***bold and em*** ~~gone~~",
	"1. one\n2. two\n\n3. three\n4. four\n\n- [ ] task\n- [x] done",
	"| a | b | c |\n|:--|:-:|--:|\n| 1 | \"2\" | 3 |\n\n| x | y |\n|---|---|\n| 'p' | q |",
	"`code with \"quotes\" and 'apostrophes' <tags> &amp;`",
	"```go\nfunc f() string { return \"x\" + 'y' } // <b>&amp;\n```\n\n    indented \"code\"\n",
	"```\nplain \"fenced\"\n```",
	"<b>raw</b> <script>alert(1)</script> <!-- comment --> <a href=\"x\">link</a>",
	"[link](https://example.com \"title\") <https://example.com> www.example.com a@b.co [bad](javascript:alert(1))",
	"![image](https://example.com/a.png \"t\") ![data](data:image/png;base64,AAAA)",
	"line one\r\nline two\rline three",
	"nul \x00 byte and \xff invalid UTF-8 \xe2\x82",
	"trailing two spaces  \nhard break\\\nbackslash break",
	"<div>block html</div>\n\n<p>para</p>",
	"plain text with no markup at all",
	"emoji 👩‍💻 and CJK 会话 and RTL \u202e text",
	"footnote[^1] and &lt;escaped&gt; and \\<not a tag\\>",
	"1. a\n2. b\n\n- c\n- d\n\n***",
	"### h3\n#### h4\n##### h5\n###### h6",
	"| a | b |\n|---|---|\n| 'c' | \"d\" |",
}

// checkSanitizeFast renders text with goldmark and, when the fast path
// takes goldmark's output, checks it against bluemonday's. It returns
// goldmark's output when the fast path took it, else nil.
func checkSanitizeFast(t *testing.T, m *markdown, text string, highlight bool) []byte {
	t.Helper()
	m.highlight = highlight
	var g bytes.Buffer
	m.out.Reset(&g)
	if err := m.md.Convert([]byte(text), m.out); err != nil {
		return nil
	}
	var fast, policy bytes.Buffer
	fast.WriteString("prefix")
	if !writeSanitizedFast(&fast, g.Bytes()) {
		if fast.String() != "prefix" {
			t.Errorf("the fast path declined %q but wrote %q", text, fast.String())
		}
		return nil
	}
	if err := m.policy.SanitizeReaderToWriter(bytes.NewReader(g.Bytes()), &policy); err != nil {
		t.Fatal(err)
	}
	if got := fast.String()[len("prefix"):]; got != policy.String() {
		t.Errorf("markdown %q\ngoldmark:  %q\nfast path: %q\nbluemonday: %q", text, g.String(), got, policy.String())
	}
	return g.Bytes()
}

// TestSanitizeFastPath checks the fast path against bluemonday on the edge
// cases, where each of fastTags must be taken at least once, and on every
// text of the corpus sessions and of a generated one, of which it must take
// most of the generated ones (or it would save nothing).
func TestSanitizeFastPath(t *testing.T) {
	m := newMarkdown()
	untaken := maps.Clone(fastTags)
	for _, text := range sanitizeCases {
		for _, hl := range []bool{false, true} {
			if g := checkSanitizeFast(t, m, text, hl); g != nil {
				for tag := range untaken {
					if bytes.Contains(g, []byte(tag)) {
						delete(untaken, tag)
					}
				}
			}
		}
	}
	if len(untaken) > 0 {
		t.Errorf("no edge case took these tags through the fast path: %v", slices.Sorted(maps.Keys(untaken)))
	}
	forSessionTexts(t, func(session string, took, texts int) {
		if session == "generated.jsonl" && took*2 < texts {
			t.Errorf("the fast path took only %d of %d generated texts", took, texts)
		}
	}, func(text string) bool { return checkSanitizeFast(t, m, text, false) != nil })
}

// forSessionTexts runs taken on every text of the corpus's sessions and of a
// generated one (a fast path's check, true when the fast path took the
// text), logs how many each session's fast path took and hands the counts
// to each.
func forSessionTexts(t *testing.T, each func(session string, took, texts int), taken func(text string) bool) {
	sessions, _ := filepath.Glob(filepath.Join(corpus, "*", "*.jsonl"))
	sessions = append(sessions, generatedSession(t, gen.Options{Seed: 3, TargetBytes: 2 << 20, Unicode: true}))
	for _, s := range sessions {
		texts := sessionTexts(t, s)
		took := 0
		for _, text := range texts {
			if taken(text) {
				took++
			}
		}
		t.Logf("%s: the fast path took %d of %d texts", filepath.Base(s), took, len(texts))
		each(filepath.Base(s), took, len(texts))
	}
}

// FuzzSanitizeFast holds the fast path to bluemonday on any markdown.
func FuzzSanitizeFast(f *testing.F) {
	for _, s := range sanitizeCases {
		f.Add(s)
	}
	m := newMarkdown()
	f.Fuzz(func(t *testing.T, text string) {
		checkSanitizeFast(t, m, text, false)
	})
}

// generatedSession writes a session generated with opts as
// generated.jsonl in a temporary folder.
func generatedSession(t *testing.T, opts gen.Options) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "generated.jsonl")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Write(f, opts); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return name
}

// sessionTexts returns the markdown texts of a session's messages: string
// contents and text blocks. Entries that do not decode are skipped.
func sessionTexts(t *testing.T, session string) []string {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(session, nil)
	if err != nil {
		return nil // a corrupt file the index refuses has no texts to check
	}
	defer closeFn()
	var texts []string
	for i := range ix.Len() {
		e, err := ix.Decode(i)
		if err != nil || e.Type != jsonl.TypeMessage {
			continue
		}
		msg, _, _, err := messageOf(e)
		if err != nil {
			continue
		}
		text, blocks := contentOf(msg.Content)
		texts = append(texts, text)
		for _, b := range blocks {
			if b.Type == jsonl.BlockThinking {
				texts = append(texts, b.Thinking)
			}
		}
	}
	return texts
}
