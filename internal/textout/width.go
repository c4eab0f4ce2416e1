package textout

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// Width is how many columns text written to w may take: $COLUMNS when it is
// a positive number, else the width of the terminal w is, else 0, meaning
// no limit (output piped to a file or a program stays whole). A writer that
// wraps another (an Unwrap() io.Writer method) is looked through.
func Width(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
		return n
	}
	return 0
}
