// Package termtext makes untrusted text safe to print on a terminal or in a
// table: every character a terminal would act on instead of show is escaped.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible returns s with every character that a terminal acts on, or that
// breaks a line or a table cell, written as a Go escape, so that session text
// (names, messages, tool output, cwds, file names) is seen, never obeyed:
//   - C0 controls and DEL: \n, \r, \t by name, the others as \x1b, \x07, …;
//   - C1 controls, U+0080 to U+009F (\u009b is a CSI on its own);
//   - bidirectional controls (U+202E right-to-left override and its kin,
//     which reorder what follows) and the line and paragraph separators;
//   - bytes that are not UTF-8, as \xff (a lone 0x9b is a CSI on a terminal
//     that is not in UTF-8 mode).
//
// Everything else, a backslash included, is kept; text with nothing to
// escape is returned as it is, without a copy.
func Visible(s string) string { return visible(s, acts) }

// VisibleText is Visible for text shown as lines on a terminal (a message,
// a tool's output): line feeds and tabs are kept as they are, every other
// character Visible escapes is escaped, a carriage return among them (it
// would let a line overwrite what was printed before it).
func VisibleText(s string) string { return visible(s, actsInText) }

// actsInText is acts less the line feed and the tab.
func actsInText(r rune) bool { return r != '\n' && r != '\t' && acts(r) }

// visible escapes in s each rune for which hide is true, and each byte
// that is not UTF-8.
func visible(s string, hide func(rune) bool) string {
	i := firstHidden(s, hide)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case hide(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstHidden is the offset of the first byte visible escapes, or -1.
func firstHidden(s string, hide func(rune) bool) int {
	for i, r := range s {
		if hide(r) || r == utf8.RuneError && isBadByte(s[i:]) {
			return i
		}
	}
	return -1
}

// isBadByte reports whether s starts with a byte that is not UTF-8 (rather
// than a real U+FFFD, which is shown as it is).
func isBadByte(s string) bool {
	_, size := utf8.DecodeRuneInString(s)
	return size == 1
}

// acts reports whether a terminal acts on r, or a table breaks on it.
func acts(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // Arabic letter mark, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line and paragraph separators, LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	}
	return false
}

// escape writes r as Go would in a string literal.
func escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
