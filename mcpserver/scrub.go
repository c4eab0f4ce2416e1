package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pitool/pitool/internal/lazyregexp"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/search"
)

// minPiece is the shortest part of a secret that scrubbing replaces on its
// own: a line of a private key is one, a word of a sentence is not.
const minPiece = 8

// Why scrub. A search match shows one line of a text, clipped; a secret
// that spans lines (a private key) or whose rule needs the words around it
// is then a fragment that redact's rules, run on the answer, no longer
// recognise. So the secrets of each matched entry are found in the whole
// entry, and every line-sized piece of them is replaced in the snippets.

// scrubMatches replaces, in each match's snippet, the secrets of its entry
// and the pieces of them; files are read once each, up to the last line
// needed.
func (s *server) scrubMatches(ms []search.Match, texts []string) error {
	byFile := map[string][]int{}
	for i, m := range ms {
		byFile[m.File] = append(byFile[m.File], i)
	}
	for file, idx := range byFile {
		want := map[int]bool{}
		for _, i := range idx {
			want[ms[i].Line] = true
		}
		lines, err := readLines(file, want)
		if err != nil {
			return err
		}
		for _, i := range idx {
			texts[i] = s.scrub(texts[i], lines[ms[i].Line])
		}
	}
	return nil
}

// readLines reads the lines of file whose numbers want holds.
func readLines(file string, want map[int]bool) (map[int][]byte, error) {
	src, err := jsonl.Open(file, nil)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	defer src.Close()
	last := 0
	for n := range want {
		last = max(last, n)
	}
	lines := map[int][]byte{}
	sc := jsonl.NewScanner(src.Reader(), file)
	for sc.Scan() && sc.Line().Num <= last {
		if l := sc.Line(); want[l.Num] {
			lines[l.Num] = slices.Clone(l.Bytes)
		}
	}
	return lines, nil
}

// scrub replaces in text the secrets of the entry line, and their pieces.
func (s *server) scrub(text string, line []byte) string {
	var pairs []string
	for _, sec := range s.secretsOf(line) {
		pairs = append(pairs, sec, redactedMark)
		for _, piece := range strings.Fields(sec) {
			if len(piece) >= minPiece && piece != sec {
				pairs = append(pairs, piece, redactedMark)
			}
		}
	}
	if len(pairs) == 0 {
		return text
	}
	return strings.NewReplacer(longestFirst(pairs)...).Replace(text)
}

// redactedMark stands for a secret, or a piece of one, in a snippet: its
// placeholder is redact's to compute, and a piece has none of its own.
const redactedMark = "[REDACTED]"

// longestFirst sorts old/new pairs by the old string's length, longest first.
func longestFirst(pairs []string) []string {
	type pair struct{ old, new string }
	ps := make([]pair, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		ps = append(ps, pair{pairs[i], pairs[i+1]})
	}
	slices.SortStableFunc(ps, func(a, b pair) int { return len(b.old) - len(a.old) })
	out := make([]string, 0, len(pairs))
	for _, p := range ps {
		out = append(out, p.old, p.new)
	}
	return out
}

// secretsOf finds the secrets of an entry line: redact rewrites the line,
// and in each string it changed the secrets are what the placeholders
// stand for (see replaced).
func (s *server) secretsOf(line []byte) []string {
	red, _, err := s.redactr.RedactLine(line)
	if err != nil || string(red) == string(line) {
		return nil
	}
	var before, after any
	if json.Unmarshal(line, &before) != nil || json.Unmarshal(red, &after) != nil {
		return nil
	}
	var out []string
	for _, p := range changedStrings(before, after, nil) {
		out = append(out, replaced(p[0], p[1])...)
	}
	return out
}

// placeholderRE is a placeholder of redact's, [REDACTED:<rule>:<8 hex>].
var placeholderRE = lazyregexp.New(`\[REDACTED:[^\]]*:[0-9a-f]{8}\]`)

// replaced returns the parts of orig that placeholders stand for in red:
// red is orig's text between the secrets with a placeholder for each.
// When that text could be found at more than one place (it also occurs
// inside a secret), both the earliest and the latest places are taken, so
// that a secret is never found shorter than it is.
func replaced(orig, red string) []string {
	literals := placeholderRE.Split(red, -1)
	if len(literals) < 2 {
		return []string{orig}
	}
	return append(alignForward(orig, literals), alignBackward(orig, literals)...)
}

// alignForward finds each literal at its earliest place after the last.
func alignForward(orig string, literals []string) []string {
	var secrets []string
	pos := len(literals[0])
	for _, lit := range literals[1:] {
		at := strings.Index(orig[min(pos, len(orig)):], lit)
		if at < 0 {
			return append(secrets, orig)
		}
		secrets = append(secrets, orig[pos:pos+at])
		pos += at + len(lit)
	}
	return secrets
}

// alignBackward finds each literal at its latest place before the next.
func alignBackward(orig string, literals []string) []string {
	var secrets []string
	end := len(orig) - len(literals[len(literals)-1])
	for i := len(literals) - 2; i >= 0; i-- {
		at := strings.LastIndex(orig[:max(end, 0)], literals[i])
		if at < 0 {
			return append(secrets, orig)
		}
		secrets = append(secrets, orig[at+len(literals[i]):end])
		end = at
	}
	return secrets
}

// changedStrings appends the pairs of strings of a (keys included) and b,
// the same value redacted, that differ.
func changedStrings(a, b any, out [][2]string) [][2]string {
	switch a := a.(type) {
	case string:
		bs, _ := b.(string)
		if bs != a {
			out = append(out, [2]string{a, bs})
		}
	case []any:
		bs, _ := b.([]any)
		for i, v := range a {
			var w any
			if i < len(bs) {
				w = bs[i]
			}
			out = changedStrings(v, w, out)
		}
	case map[string]any:
		bm, _ := b.(map[string]any)
		for k, v := range a {
			w, ok := bm[k]
			if !ok {
				out = append(out, [2]string{k, ""})
			}
			out = changedStrings(v, w, out)
		}
	}
	return out
}
