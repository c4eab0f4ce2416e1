package mcpserver

import (
	"unicode/utf8"
)

// window is a writer that keeps the bytes of one page of what is written
// through it, [start, start+size), plus a few bytes past it to finish a
// character and to tell that there is more; once it has them it calls
// full (to cancel the rendering). Everything written is counted.
type window struct {
	start, size int64
	pos         int64 // bytes written so far
	buf         []byte
	full        func()
}

func (w *window) Write(p []byte) (int, error) {
	from := w.pos
	w.pos += int64(len(p))
	lo, hi := max(from, w.start), min(w.pos, w.start+w.size+utf8.UTFMax)
	if lo < hi {
		w.buf = append(w.buf, p[lo-from:hi-from]...)
	}
	if w.full != nil && w.pos >= w.start+w.size+utf8.UTFMax {
		w.full()
	}
	return len(p), nil
}

// page is the text of the window cut at character boundaries: it starts at
// the first character at or after start and ends before the first
// character that does not fit in size. next is where the page after it
// starts, and more says whether there is one.
func (w *window) page() (text string, start, next int64, more bool) {
	b := w.buf
	start = w.start
	for len(b) > 0 && start > 0 && !utf8.RuneStart(b[0]) {
		b, start = b[1:], start+1
	}
	more = w.pos > w.start+w.size
	if int64(len(b)) > w.size-(start-w.start) {
		b = b[:w.size-(start-w.start)]
		for cut := len(b); cut > 0 && cut > len(b)-utf8.UTFMax; cut-- {
			if utf8.RuneStart(b[cut-1]) {
				if !utf8.FullRune(b[cut-1:]) {
					b = b[:cut-1]
				}
				break
			}
		}
	}
	return string(b), start, start + int64(len(b)), more
}
