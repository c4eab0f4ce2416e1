package exporter

import (
	"strconv"
	"strings"

	"github.com/pitool/pitool/internal/lazyregexp"
	"github.com/pitool/pitool/jsonl"
)

// entryView is one rendered entry: the attributes the page script reads
// (parent, kind, label, a one-line summary) and exactly one body.
type entryView struct {
	ID, Parent, Kind, Label, Summary, Time string
	BranchFrom                             string // the parent, when the previous entry shown is not it
	OffPath                                bool   // --all-branches: not on the branch shown first

	User      *userView
	Assistant *assistantView
	Tool      *toolView // a tool result whose call was not found
	Bash      *bashView
	System    *systemView
	Sum       *summaryView
	Custom    *customView
	Setting   string // a one-line entry: model change, label, usage…
}

type userView struct {
	Text   markdownText
	Images []Image
}

type assistantView struct {
	Blocks []blockView
	Tools  []*toolView
	Model  string
	Stop   string // "aborted" or "error"
	Error  string
}

type blockView struct {
	Text     markdownText // markdown text
	Thinking string       // escaped when written
	Redacted bool         // thinking the provider withheld
}

type bashView struct {
	Command   string
	Output    *output
	Exit      string
	Cancelled bool
	Excluded  bool
	Truncated string
}

type systemView struct {
	Title   string
	Update  bool
	Text    *output
	Tools   []ToolDecl
	Removed []string
}

type summaryView struct {
	Title    string
	Body     markdownText
	Read     []string
	Modified []string
}

// toolView is one tool call and its result, as the page lays it out.
type toolView struct {
	Name, CallID, ResultID string
	Status                 string // ok, error or pending (no result recorded)
	Path, Detail           string // the file or folder, and a line range, glob or limit
	Command, Pattern       string
	Args                   string // pretty JSON of other tools' arguments
	Content                *output
	Output                 *output
	Diff                   []diffLine
	Images                 []Image
	Note                   string // a short result text (write)
	Omitted                bool   // --no-tool-output
}

// diffLine is one line of an edit's diff.
type diffLine struct {
	Class, Text string
}

type customView struct {
	Type   string
	Hidden bool
	Body   markdownText
	Images []Image
}

// contentOf splits message content (a string or blocks) into its joined text
// and its blocks.
func contentOf(raw jsonl.RawMessage) (string, []jsonl.Block) {
	if s, ok := jsonl.DecodeString(raw); ok {
		return s, nil
	}
	blocks, ok := jsonl.DecodeBlocks(raw)
	if !ok && jsonl.Unmarshal(raw, &blocks) != nil {
		return "", nil
	}
	return blocksText(blocks), blocks
}

// blocksText is the text of a content array's text blocks, joined by
// newlines.
func blocksText(blocks []jsonl.Block) string {
	var texts []string
	for _, b := range blocks {
		if b.Type == jsonl.BlockText {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

var (
	imageMIME = lazyregexp.New(`^image/(png|jpeg|gif|webp)$`)
	base64Re  = lazyregexp.New(`^[A-Za-z0-9+/]*={0,2}$`)
)

// images returns the image blocks as data URLs, only for the image types a
// browser shows and only when the data is plain base64.
func images(blocks []jsonl.Block) []Image {
	var out []Image
	for _, b := range blocks {
		if b.Type != jsonl.BlockImage || !imageMIME.MatchString(b.MimeType) || !base64Re.MatchString(b.Data) {
			continue
		}
		out = append(out, Image{Src: "data:" + b.MimeType + ";base64," + b.Data})
	}
	return out
}

// summaryLine is a short one-line text for the sidebar: the words of s
// joined by single spaces, cut at 100 bytes. It reads no further into s than
// the cut.
func summaryLine(s string) string {
	var b strings.Builder
	for word := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(word)
		if b.Len() > 100 {
			return strings.ToValidUTF8(b.String()[:100], "") + "…"
		}
	}
	return b.String()
}

// formatTokens is Pi's compact token count: 950, 9.5k, 95k, 9.5M.
func formatTokens(n float64) string {
	switch {
	case n < 1000:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case n < 10000:
		return strconv.FormatFloat(n/1000, 'f', 1, 64) + "k"
	case n < 1e6:
		return strconv.FormatFloat(n/1000, 'f', 0, 64) + "k"
	}
	return strconv.FormatFloat(n/1e6, 'f', 1, 64) + "M"
}
