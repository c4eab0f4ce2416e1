package exporter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Goldmark was a quarter of an export's CPU time, much of it parsing texts
// whose only markdown is their line breaks, a fenced code block, a bullet
// list, a simple table or a **strong** word. For those, writePlainMarkdown
// writes what goldmark (with hard wraps and codeBlockRenderer) and the
// sanitizer write, in one pass: each run of non-empty lines a <p>, its lines
// joined by <br> and a newline, " and ' as the sanitizer writes them, **x**
// as <strong>x</strong>, a tight list of "- " lines as <ul>, a table of plain
// cells as goldmark writes it, and a fenced block that is not highlighted as
// writePlainCode writes it. It declines, writing nothing, any text with a
// byte or a line start that could mean anything else to goldmark's
// CommonMark and GFM parsers (emphasis other than a plain **x**, code spans,
// links, autolinks and linkify, references, escapes, raw HTML, aligned or
// ragged tables, loose lists, other block starts, indentation, trailing
// spaces), a control byte or invalid UTF-8; goldmark renders those.
// TestPlainMarkdown and FuzzPlainMarkdown hold it to goldmark and the
// sanitizer, byte for byte.

// plainInLine marks the ASCII bytes a line of a plain text may hold after
// its first byte. Left out: control bytes, and every byte goldmark's inline
// parsers or its GFM extensions act on: * _ ~ ` [ ] ! < > & \ | @ (and :
// and ., which writePlainLine checks for linkify's protocols and www.; *
// only in plain **strong** spans).
var plainInLine = func() (m [128]bool) {
	for c := ' '; c < 0x7f; c++ {
		m[c] = !strings.ContainsRune("*_~`[]!<>&\\|@", c)
	}
	return m
}()

// writePlainMarkdown writes text's HTML to b and reports true when text is
// plain (see above); otherwise it writes nothing and reports false.
// highlight is the markdown's: a fence with a language may then be
// highlighted, which the fast path leaves to goldmark.
func writePlainMarkdown(b *bytes.Buffer, text string, highlight bool) bool {
	start, open := b.Len(), false
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		ok := true
		switch {
		case strings.HasPrefix(line, "```"):
			if open {
				b.WriteString("</p>\n")
				open = false
			}
			rest, ok = writeFence(b, line, rest, highlight)
		case strings.HasPrefix(line, "- ") && !open:
			rest, ok = writeList(b, line, rest)
		case strings.HasPrefix(line, "|") && !open:
			rest, ok = writeTable(b, line, rest)
		case line == "":
			if open {
				b.WriteString("</p>\n")
				open = false
			}
		case !plainStart(line) || line[len(line)-1] == ' ':
			ok = false
		default:
			if open {
				b.WriteString("<br>\n")
			} else {
				b.WriteString("<p>")
				open = true
			}
			ok = writePlainLine(b, line)
		}
		if !ok {
			b.Truncate(start)
			return false
		}
		text = rest
	}
	if open {
		b.WriteString("</p>\n")
	}
	return true
}

// writePlainLine writes a line that starts no block, reporting false when
// it holds anything but plainInLine bytes, valid UTF-8 and plain **strong**
// spans, or names a URL scheme linkify links (http:, https:, ftp:) or a www.
// domain.
func writePlainLine(b *bytes.Buffer, line string) bool {
	ascii, last, closing := true, 0, -1
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c >= utf8.RuneSelf:
			ascii = false
		case c == '*' && i == closing:
			writeQuotesEscaped(b, line[last:i])
			b.WriteString("</strong>")
			i++
			last, closing = i+1, -1
		case c == '*' && closing < 0:
			n := strongAt(line, i)
			if n == 0 {
				return false
			}
			writeQuotesEscaped(b, line[last:i])
			b.WriteString("<strong>")
			closing = i + n - 2
			i++
			last = i + 1
		case !plainInLine[c]:
			return false
		case c == ':' && (lowerSuffix(line[:i], "http") || lowerSuffix(line[:i], "https") || lowerSuffix(line[:i], "ftp")):
			return false
		case c == '.' && lowerSuffix(line[:i], "www"):
			return false
		}
	}
	writeQuotesEscaped(b, line[last:])
	return ascii || utf8.ValidString(line)
}

// strongAt returns the length of the plain **x** span at line[i:], 0 when
// there is none: x of no *, starting and ending with an ASCII letter or
// digit, the span at the line's start or after a space, and at its end or
// before a space or one of .,:;?). (writePlainLine checks x's other bytes.)
func strongAt(line string, i int) int {
	if !strings.HasPrefix(line[i:], "**") || (i > 0 && line[i-1] != ' ') {
		return 0
	}
	end := strings.Index(line[i+2:], "**")
	if end < 1 {
		return 0
	}
	x := line[i+2 : i+2+end]
	if !isAlnum(x[0]) || !isAlnum(x[len(x)-1]) {
		return 0
	}
	n := end + 4
	if after := i + n; after < len(line) && !strings.ContainsRune(" .,:;?)", rune(line[after])) {
		return 0
	}
	return n
}

// writeList writes the tight bullet list that starts with line, its items
// "- " and a plain line each, and returns what follows it. ok is false for
// a list the fast path does not take: an item that is not plain, a list
// followed by a line that is neither blank nor the end, or by a blank line
// and another item (the list would go on, loose).
func writeList(b *bytes.Buffer, line, rest string) (after string, ok bool) {
	b.WriteString("<ul>\n")
	for {
		item := line[2:]
		if item == "" || !plainStart(item) || item[len(item)-1] == ' ' {
			return "", false
		}
		b.WriteString("<li>")
		if !writePlainLine(b, item) {
			return "", false
		}
		b.WriteString("</li>\n")
		if line, rest, _ = strings.Cut(rest, "\n"); !strings.HasPrefix(line, "- ") {
			break
		}
	}
	if line != "" || strings.HasPrefix(strings.TrimLeft(rest, "\n"), "-") {
		return "", false
	}
	b.WriteString("</ul>\n")
	return rest, true
}

// writeTable writes the GFM table whose header row is line, and returns
// what follows it. The fast path takes only rows written | a | b |, each
// with as many cells as the header, of plain text (or none); a delimiter row
// of dashes alone (no alignment); and the table ended by a blank line or the
// text's end. ok is false for anything else.
func writeTable(b *bytes.Buffer, line, rest string) (after string, ok bool) {
	head, ok := tableCells(line)
	delim, next, _ := strings.Cut(rest, "\n")
	dashes, dok := tableCells(delim)
	if !ok || !dok || len(dashes) != len(head) {
		return "", false
	}
	for _, d := range dashes {
		if d == "" || strings.Trim(d, "-") != "" {
			return "", false
		}
	}
	b.WriteString("<table>\n<thead>\n")
	if !writeRow(b, head, "th") {
		return "", false
	}
	b.WriteString("</thead>\n")
	body := false
	for rest = next; rest != ""; {
		line, next, _ = strings.Cut(rest, "\n")
		if line == "" {
			break
		}
		cells, ok := tableCells(line)
		if !ok || len(cells) != len(head) {
			return "", false
		}
		if !body {
			b.WriteString("<tbody>\n")
			body = true
		}
		if !writeRow(b, cells, "td") {
			return "", false
		}
		rest = next
	}
	if body {
		b.WriteString("</tbody>\n")
	}
	b.WriteString("</table>\n")
	return rest, true
}

// tableCells splits a row written | a | b | into its cells, trimmed of
// spaces; ok is false for any other row.
func tableCells(row string) (cells []string, ok bool) {
	if len(row) < 2 || row[0] != '|' || row[len(row)-1] != '|' {
		return nil, false
	}
	cells = strings.Split(row[1:len(row)-1], "|")
	for i, c := range cells {
		cells[i] = strings.Trim(c, " ")
	}
	return cells, true
}

// writeRow writes a table row of plain cells as <tag> elements.
func writeRow(b *bytes.Buffer, cells []string, tag string) bool {
	b.WriteString("<tr>\n")
	for _, c := range cells {
		b.WriteString("<" + tag + ">")
		if c != "" && (!plainStart(c) || !writePlainLine(b, c)) {
			return false
		}
		b.WriteString("</" + tag + ">\n")
	}
	b.WriteString("</tr>\n")
	return true
}

// writeFence writes the fenced code block that opens with line and ends at
// a closing fence in rest, as codeBlockRenderer writes it unhighlighted, and
// returns what follows the block. ok is false for a fence the fast path does
// not take: an info string other than a plain language name (or a language
// when highlight is on), a line in the block that could be read as a closing
// fence but is not exactly one, a control byte other than a tab, invalid
// UTF-8, or no closing fence.
func writeFence(b *bytes.Buffer, line, rest string, highlight bool) (after string, ok bool) {
	ticks := len(line) - len(strings.TrimLeft(line, "`"))
	info := line[ticks:]
	if !plainInfo(info) || (highlight && info != "") {
		return "", false
	}
	start := rest
	for len(rest) > 0 {
		l, next, _ := strings.Cut(rest, "\n")
		if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "`") || strings.HasPrefix(t, "~") {
			if len(t) != len(l) || strings.Trim(l, "`") != "" || len(l) < ticks {
				return "", false
			}
			code := start[:len(start)-len(rest)]
			b.WriteString(`<pre class="chroma"><code>`)
			escapeCode(b, code)
			b.WriteString(`</code></pre>`)
			return next, true
		}
		if !plainCodeLine(l) {
			return "", false
		}
		rest = next
	}
	return "", false
}

// plainInfo reports whether a fence's info string is empty or one plain
// language name.
func plainInfo(info string) bool {
	for i := 0; i < len(info); i++ {
		if c := info[i]; !isAlnum(c) && c != '+' && c != '-' && c != '#' {
			return false
		}
	}
	return true
}

// plainCodeLine reports whether a line inside a fence holds no control
// byte but tabs, and is valid UTF-8.
func plainCodeLine(l string) bool {
	ascii := true
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case c >= utf8.RuneSelf:
			ascii = false
		case c < ' ' && c != '\t', c == 0x7f:
			return false
		}
	}
	return ascii || utf8.ValidString(l)
}

// plainStart reports whether line's first byte starts no block: a letter,
// a digit run not followed by . or ) (an ordered list's marker) or a
// non-ASCII byte.
func plainStart(line string) bool {
	c := line[0]
	switch {
	case c >= utf8.RuneSelf, 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return true
	case '0' <= c && c <= '9':
		i := 1
		for i < len(line) && '0' <= line[i] && line[i] <= '9' {
			i++
		}
		return i == len(line) || (line[i] != '.' && line[i] != ')')
	}
	return false
}

// lowerSuffix reports whether s ends with suffix, a lowercase word, in any
// case.
func lowerSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// writeQuotesEscaped writes s with " and ' as the sanitizer writes them
// (the only bytes of a plain line that goldmark or the sanitizer change).
func writeQuotesEscaped(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '"':
			r = "&#34;"
		case '\'':
			r = "&#39;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	b.WriteString(s[last:])
}
