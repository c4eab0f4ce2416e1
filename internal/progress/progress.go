// Package progress draws a one-line progress bar on standard error when it
// is a terminal, and nothing otherwise, so that logs and pipes stay clean.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Width of the bar in cells, and the shortest interval between redraws.
const (
	barWidth    = 30
	redrawEvery = 100 * time.Millisecond
)

// Bar counts work done out of a total. A nil *Bar is a valid bar that draws nothing.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	total int
	done  int
	start time.Time
	drawn time.Time
}

// IsTerminal reports whether w is a character device (a terminal). A writer
// with an Unwrap() io.Writer method (pitool's stderr) is the writer it wraps.
func IsTerminal(w io.Writer) bool {
	f, ok := unwrap(w).(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// unwrap is the writer w wraps (Unwrap() io.Writer), or w.
func unwrap(w io.Writer) io.Writer {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// shows reports whether w is a terminal that shows a bar: not merely a
// character device, as /dev/null is (a bar drawn there for a run's output
// thrown away read the clock per item: issue 28).
func shows(w io.Writer) bool {
	f, ok := unwrap(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a bar over total items drawn on w, or nil when w is not a
// terminal that shows it.
func New(w io.Writer, total int, label string) *Bar {
	if !shows(w) || total <= 0 {
		return nil
	}
	return &Bar{w: w, label: label, total: total, start: time.Now()}
}

// Add counts n more items done and redraws when it is time to.
func (b *Bar) Add(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	if now := time.Now(); now.Sub(b.drawn) >= redrawEvery || b.done == b.total {
		b.drawn = now
		fmt.Fprint(b.w, "\r"+b.line()+"\x1b[K")
	}
}

// Finish erases the bar.
func (b *Bar) Finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprint(b.w, "\r\x1b[K")
}

func (b *Bar) line() string {
	filled := barWidth * b.done / b.total
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled)
	elapsed := time.Since(b.start).Round(time.Second)
	return fmt.Sprintf("%s [%s] %d/%d %s", b.label, bar, b.done, b.total, elapsed)
}
