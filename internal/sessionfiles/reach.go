package sessionfiles

import (
	"context"
	"os"
	"slices"
)

// Reach lists every path a write to paths may touch, in order: each path
// (a session named by id or "latest" resolved to its file, "-" left out),
// and after a folder the session files found in it, since a folder may
// hold files of several owners. A path that cannot be resolved or searched
// is listed as it is.
func Reach(ctx context.Context, paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if r, err := Resolve(ctx, p, RefOptions{}); err == nil {
			p = r
		}
		out = append(out, p)
		out = append(out, filesIn(p)...)
	}
	return slices.Compact(out)
}

// filesIn lists the session files under path when it is a folder.
func filesIn(path string) []string {
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		return nil
	}
	files, err := Expand([]string{path})
	if err != nil {
		return nil
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}
