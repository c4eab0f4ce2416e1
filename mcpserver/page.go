package mcpserver

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pageSize is a tool's limit parameter, bounded: def when unset, max at most.
func pageSize(limit, def, max int) int {
	if limit <= 0 {
		return def
	}
	return min(limit, max)
}

// cursorOffset reads a continuation cursor: the number of items already
// returned ("" for the first page).
func cursorOffset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("cursor %q is not one this server returned: pass next_cursor from the previous answer, or none for the first page", cursor)
	}
	return n, nil
}

// nextCursor is the cursor of the page after the one that ends at end, ""
// when there is none.
func nextCursor(end int, more bool) string {
	if !more {
		return ""
	}
	return strconv.Itoa(end)
}

// clip keeps at most n characters of s, marking a cut with "…". The word
// the cut falls in is dropped whole: a part of a secret is what redact's
// rules may no longer recognise.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return dropCutTail(string([]rune(s)[:n-1])) + "…"
}

// dropCutTail drops the last word of s, cut short (all of s when it is one word).
func dropCutTail(s string) string {
	return strings.TrimRightFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
}

// dropCutHead drops the first word of s, cut short.
func dropCutHead(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
}
