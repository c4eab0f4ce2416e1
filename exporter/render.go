package exporter

import (
	"strconv"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// renderer lays out the transcript's items as the page's entry views.
type renderer struct {
	t    *Transcript
	md   markdowns // renderers for the goroutines that write entries
	code budget    // code highlighting left, spent in page order
}

func newRenderer(ix *jsonl.Index, opts HTMLOptions) (*renderer, error) {
	t, err := NewTranscript(ix, opts)
	if err != nil {
		return nil, err
	}
	return &renderer{t: t, code: budget{left: highlightBudget}, md: newMarkdowns(pageWorkers)}, nil
}

// markdown defers rendering text to the entry markup, deciding now whether
// its fenced code may be highlighted.
func (r *renderer) markdown(text string) markdownText {
	n := fencedBytes(text)
	return markdownText{ms: r.md, text: text, highlight: n > 0 && r.code.take(n)}
}

// fencedBytes counts the bytes of the lines inside ``` or ~~~ fences.
func fencedBytes(text string) int {
	n, fence := 0, ""
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
		case fence != "" && strings.HasPrefix(t, fence):
			fence = ""
		case fence != "":
			n += len(line)
		}
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
