package textout

import (
	"path/filepath"
	"strings"

	"github.com/mattn/go-runewidth"
)

// ShortPath is path as a reader tells it apart from its neighbours: relative
// to base (the folder the user named) when it lies inside it, else with the
// home folder written as ~, else as it is. base and home may be "".
func ShortPath(path, base, home string) string {
	if rel, ok := inside(path, base); ok {
		return rel
	}
	if rel, ok := inside(path, home); ok {
		return filepath.Join("~", rel)
	}
	return path
}

// inside is path relative to dir when path lies inside dir.
func inside(path, dir string) (string, bool) {
	if dir == "" || dir == "/" {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// Tail is s cut to width columns by keeping its end, which for a path is
// the file name that tells it apart, after a "…"; s when it fits.
func Tail(s string, width int) string {
	if runewidth.StringWidth(s) <= width {
		return s
	}
	if width <= 1 {
		return runewidth.Truncate("…", width, "")
	}
	r := []rune(s)
	used, i := 1, len(r)
	for i > 0 && used+runewidth.RuneWidth(r[i-1]) <= width {
		i--
		used += runewidth.RuneWidth(r[i])
	}
	return "…" + string(r[i:])
}

// Clip is s cut to width columns by keeping its start and ending it with
// "…"; s when it fits.
func Clip(s string, width int) string {
	return runewidth.Truncate(s, max(width, 0), "…")
}

// Columns is how many terminal columns s takes.
func Columns(s string) int {
	return runewidth.StringWidth(s)
}
