package exporter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Goldmark was a quarter of an export's CPU time, most of it parsing texts
// that hold no markdown at all: prose whose only structure is its line
// breaks. For those, writePlainMarkdown writes what goldmark (with hard
// wraps) and the sanitizer write, in one pass: each run of non-empty lines
// a <p>, its lines joined by <br> and a newline, " and ' as the sanitizer
// writes them. It declines, writing nothing, any text with a byte or a line
// start that could mean markdown to goldmark's CommonMark and GFM parsers
// (emphasis, code, links, autolinks and linkify, references, escapes, raw
// HTML, tables, block starts, indentation, trailing spaces), a control
// byte or invalid UTF-8; goldmark renders those. TestPlainMarkdown and
// FuzzPlainMarkdown hold it to goldmark and the sanitizer, byte for byte.

// plainInLine marks the ASCII bytes a line of a plain text may hold after
// its first byte. Left out: control bytes, and every byte goldmark's inline
// parsers or its GFM extensions act on: * _ ~ ` [ ] ! < > & \ | @ (and :
// and ., which plainLine checks for linkify's protocols and www.).
var plainInLine = func() (m [128]bool) {
	for c := ' '; c < 0x7f; c++ {
		m[c] = !strings.ContainsRune("*_~`[]!<>&\\|@", c)
	}
	return m
}()

// writePlainMarkdown writes text's HTML to b and reports true when text is
// plain (see above); otherwise it writes nothing and reports false.
func writePlainMarkdown(b *bytes.Buffer, text string) bool {
	start, open := b.Len(), false
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		switch {
		case line == "":
			if open {
				b.WriteString("</p>\n")
				open = false
			}
			continue
		case !plainLine(line):
			b.Truncate(start)
			return false
		case open:
			b.WriteString("<br>\n")
		default:
			b.WriteString("<p>")
			open = true
		}
		writeQuotesEscaped(b, line)
	}
	if open {
		b.WriteString("</p>\n")
	}
	return true
}

// plainLine reports whether line can start no block and holds no inline
// markdown: it starts with a letter, a digit run not followed by . or ) (an
// ordered list's marker) or a non-ASCII byte, does not end with a space,
// holds only plainInLine bytes and valid UTF-8, and names no URL scheme
// linkify links (http:, https:, ftp:) and no www. domain.
func plainLine(line string) bool {
	if !plainStart(line) || line[len(line)-1] == ' ' {
		return false
	}
	ascii := true
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c >= utf8.RuneSelf:
			ascii = false
		case !plainInLine[c]:
			return false
		case c == ':' && (lowerSuffix(line[:i], "http") || lowerSuffix(line[:i], "https") || lowerSuffix(line[:i], "ftp")):
			return false
		case c == '.' && lowerSuffix(line[:i], "www"):
			return false
		}
	}
	return ascii || utf8.ValidString(line)
}

// plainStart reports whether line's first byte starts no block (see
// plainLine).
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
