package exporter

import (
	"bytes"
	"html/template"

	"github.com/pitool/pitool/internal/termtext"
)

// The entry markup is written without html/template's reflection, so these
// escape session values exactly as html/template escapes a string in the same
// places (its htmlEscaper, attrEscaper, urlEscaper and urlNormalizer);
// FuzzEscapers holds them to that, byte for byte.

// escapeHTML writes s escaped for HTML text or a quoted attribute value: NUL
// becomes U+FFFD, and " & ' + < > character references. Only these ASCII
// bytes change; every other byte, valid UTF-8 or not, is copied.
func escapeHTML(b *bytes.Buffer, s string) { escapeWith(b, s, &textEscapes) }

// escapeName writes a file or tool name as escapeHTML does, with its control
// characters shown as termtext.Visible shows them: a right-to-left override
// (U+202E) or another bidi control would otherwise reorder how the name
// reads (invoice\u202efdp.exe shows as invoiceexe.pdf), and a newline would
// hide part of it.
func escapeName(b *bytes.Buffer, s string) { escapeHTML(b, termtext.Visible(s)) }

// escapeCode writes s escaped as template.HTMLEscapeString escapes it, which
// is escapeHTML but for the plus sign, kept.
func escapeCode(b *bytes.Buffer, s string) { escapeWith(b, s, &codeEscapes) }

// escapeWith writes s with the bytes that escapes maps replaced. It looks
// each byte up in escaped first, a table small enough to stay in cache
// (escapes is 4 KB).
func escapeWith(b *bytes.Buffer, s string, escapes *[256]string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if !escaped[s[i]] {
			continue
		}
		r := escapes[s[i]]
		if r == "" {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// textEscapes is html/template's htmlReplacementTable, by byte.
var textEscapes = [256]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// escaped marks the bytes that textEscapes or codeEscapes replace.
var escaped = func() (m [256]bool) {
	for c := range 256 {
		m[c] = textEscapes[c] != "" || codeEscapes[c] != ""
	}
	return m
}()

// codeEscapes is text/template's HTMLEscape, by byte.
var codeEscapes = [256]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// escapeURLPart writes s percent-encoded for the query or fragment of a URL
// in an attribute: every byte but ASCII letters, digits and - . _ ~.
func escapeURLPart(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUnreserved(c) {
			b.WriteByte(c)
			continue
		}
		percent(b, c)
	}
}

// escapeURL writes a trusted URL (a data: image) for an attribute: bytes that
// cannot appear in a URL are percent-encoded, existing %XX escapes and the
// reserved characters are kept, and the result is escaped as attribute text.
func escapeURL(b *bytes.Buffer, u template.URL) {
	s := string(u)
	var n bytes.Buffer
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isReserved(c):
			n.WriteByte(c)
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			n.WriteByte(c)
		default:
			percent(&n, c)
		}
	}
	escapeHTML(b, n.String())
}

// isUnreserved reports RFC 3986's unreserved characters.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isReserved reports the reserved characters html/template keeps in a URL
// (RFC 3986's, without the quote and parentheses).
func isReserved(c byte) bool {
	switch c {
	case '!', '#', '$', '&', '*', '+', ',', '/', ':', ';', '=', '?', '@', '[', ']':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// percent writes c as %xx, in lower case as html/template does.
func percent(b *bytes.Buffer, c byte) {
	const hex = "0123456789abcdef"
	b.WriteByte('%')
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}
