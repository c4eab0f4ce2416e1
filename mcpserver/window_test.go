package mcpserver

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestWindowPagesWholeCharacters pages a text of 1-, 2-, 3- and 4-byte
// characters at every page size from 4 to 13 bytes, written in chunks of
// every size: the pages are valid UTF-8, none longer than its size, and
// joined they are the text.
func TestWindowPagesWholeCharacters(t *testing.T) {
	text := strings.Repeat("a·…😀b", 20)
	for size := int64(4); size <= 13; size++ {
		for chunk := 1; chunk <= 7; chunk++ {
			var got strings.Builder
			for start, pages := int64(0), 0; ; pages++ {
				w := &window{start: start, size: size}
				for i := 0; i < len(text); i += chunk {
					w.Write([]byte(text[i:min(len(text), i+chunk)]))
				}
				page, from, next, more := w.page()
				if from != start || int64(len(page)) > size || !utf8.ValidString(page) || page == "" && more {
					t.Fatalf("size %d, chunk %d, at %d: page %q from %d", size, chunk, start, page, from)
				}
				got.WriteString(page)
				if !more {
					break
				}
				start = next
			}
			if got.String() != text {
				t.Fatalf("size %d, chunk %d: pages joined are %q", size, chunk, got.String())
			}
		}
	}
}

// TestWindowFromTheMiddleOfACharacter: an offset inside a character starts
// the page at the next one.
func TestWindowFromTheMiddleOfACharacter(t *testing.T) {
	w := &window{start: 2, size: 10}
	w.Write([]byte("a😀bc"))
	if page, from, _, more := w.page(); page != "bc" || from != 5 || more {
		t.Fatalf("page %q from %d, more %v", page, from, more)
	}
}
