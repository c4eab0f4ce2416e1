package sessionfiles

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
)

// Latest is the session reference that names the most recent session.
const Latest = "latest"

// MaxCandidates is how many sessions an AmbiguousError lists.
const MaxCandidates = 10

// RefOptions say where a session reference is looked up.
type RefOptions struct {
	// Dir is the sessions folder; "" is Pi's (DefaultSessionsDir).
	Dir string
	// Cwd, when set, restricts Latest to the sessions of that project.
	Cwd string
}

// IsRef reports whether arg can name a session rather than a file: Latest,
// or what Pi's --session takes as a session id (no path separator, no
// .jsonl ending, and the characters of a session id).
func IsRef(arg string) bool {
	if arg == Latest {
		return true
	}
	if strings.ContainsAny(arg, `/\`) || IsSessionName(arg) {
		return false
	}
	return sessionIDPattern.MatchString(arg)
}

// NotFoundError is a reference that names no session in the folder.
type NotFoundError struct {
	Ref, Dir string
	Cwd      string // the project Latest was looked up in, if any
	Err      error  // why the reference is not a file either (fs.ErrNotExist)
}

// Error says where the session was looked for.
func (e *NotFoundError) Error() string {
	switch {
	case e.Ref == Latest && e.Cwd != "":
		return fmt.Sprintf("latest: no session of %s in %s", e.Cwd, e.Dir)
	case e.Ref == Latest:
		return fmt.Sprintf("latest: no session in %s", e.Dir)
	}
	return fmt.Sprintf("%s: no such file, and no session id in %s starts with it", e.Ref, e.Dir)
}

// Unwrap returns why the reference is not a file.
func (e *NotFoundError) Unwrap() error { return e.Err }

// AmbiguousError is an id prefix that several sessions' ids start with.
type AmbiguousError struct {
	Ref        string
	Count      int              // sessions that match
	Candidates []*jsonl.Listing // the most recent of them, at most MaxCandidates
}

// Error says how many sessions match.
func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s: %d sessions' ids start with it; give more of the id", e.Ref, e.Count)
}

// Resolve turns what a user names as a session into a path, as Pi's
// --session <path-or-id> does: "-" and a path that exists are kept as they
// are (a path always wins); Latest is the most recent session (by last
// activity, as ls and Pi's /resume order them; of opts.Cwd's project when
// set) that Pi lists; anything else of a session id's form is the session
// whose header id equals it or, failing that, the one session whose id
// starts with it. Pi takes the first of several sessions a prefix matches;
// pitool refuses to guess and returns an *AmbiguousError. A reference that
// matches nothing is a *NotFoundError saying where it was looked for; an
// arg that cannot be a reference is kept, for the caller's open to fail on.
func Resolve(ctx context.Context, arg string, opts RefOptions) (string, error) {
	if arg == "-" || !IsRef(arg) {
		return arg, nil
	}
	_, statErr := os.Lstat(arg)
	if statErr == nil || !errors.Is(statErr, fs.ErrNotExist) {
		return arg, nil
	}
	dir, err := refDir(opts.Dir)
	if err != nil && arg == Latest {
		return "", &NotFoundError{Ref: Latest, Dir: dir, Cwd: opts.Cwd, Err: err}
	}
	if err != nil {
		return arg, nil // no sessions folder: the caller's open says the file is missing
	}
	rows, err := listAll(ctx, dir)
	if err != nil {
		return "", err
	}
	if arg == Latest {
		return latest(rows, dir, opts.Cwd)
	}
	return byID(rows, arg, dir, projectOf(opts.Cwd), statErr)
}

// projectOf is the folder whose sessions a prefix prefers, as Pi prefers
// the current project's: cwd when set, else the working directory.
func projectOf(cwd string) string {
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return ""
	}
	return abs
}

// refDir is the sessions folder to look in, when it exists.
func refDir(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultSessionsDir(); err != nil {
			return "", err
		}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return dir, err
	}
	if !info.IsDir() {
		return dir, fmt.Errorf("%s: not a folder", dir)
	}
	return dir, nil
}

// listAll lists every session under dir, plain and compressed, newest
// first (ties by file name descending, as ls orders them).
func listAll(ctx context.Context, dir string) ([]*jsonl.Listing, error) {
	files, err := ExpandEveryPath([]string{dir})
	if err != nil {
		return nil, err
	}
	rows := make([]*jsonl.Listing, len(files))
	err = parallel.Each(ctx, len(files), 0, func() func(i int) {
		var lister jsonl.Lister
		return func(i int) {
			if files[i].Special == "" {
				rows[i], _ = lister.ListFile(files[i].Path, jsonl.ListOptions{Compressed: true})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	rows = slices.DeleteFunc(rows, func(r *jsonl.Listing) bool { return r == nil })
	slices.SortStableFunc(rows, func(a, b *jsonl.Listing) int {
		if c := strings.Compare(b.Modified, a.Modified); c != 0 {
			return c
		}
		return strings.Compare(filepath.Base(b.Path), filepath.Base(a.Path))
	})
	return rows, nil
}

// latest is the first row Pi's /resume lists (no archive), of cwd's
// project when cwd is set.
func latest(rows []*jsonl.Listing, dir, cwd string) (string, error) {
	var abs string
	if cwd != "" {
		var err error
		if abs, err = filepath.Abs(cwd); err != nil {
			return "", fmt.Errorf("--cwd %s: %w", cwd, err)
		}
	}
	for _, r := range rows {
		if !ListedByPi(r.Path) || abs != "" && !sameCwd(r.Cwd, abs) {
			continue
		}
		return r.Path, nil
	}
	return "", &NotFoundError{Ref: Latest, Dir: dir, Cwd: abs, Err: fs.ErrNotExist}
}

// sameCwd reports whether a session's cwd is the folder abs, as ls --cwd
// compares them.
func sameCwd(cwd, abs string) bool {
	if cwd == "" {
		return false
	}
	c, err := filepath.Abs(cwd)
	return err == nil && c == abs
}

// byID is the session whose id is ref, else the one whose id starts with
// it, else the one of the project here whose id starts with it.
func byID(rows []*jsonl.Listing, ref, dir, here string, statErr error) (string, error) {
	var matches []*jsonl.Listing
	for _, r := range rows {
		if r.ID == ref {
			return r.Path, nil
		}
		if strings.HasPrefix(r.ID, ref) {
			matches = append(matches, r)
		}
	}
	switch {
	case len(matches) == 0:
		return "", &NotFoundError{Ref: ref, Dir: dir, Err: statErr}
	case oneID(matches):
		return matches[0].Path, nil // one session, or copies of it: the newest
	}
	local := slices.DeleteFunc(slices.Clone(matches), func(r *jsonl.Listing) bool { return !sameCwd(r.Cwd, here) })
	if len(local) > 0 && oneID(local) {
		return local[0].Path, nil
	}
	return "", &AmbiguousError{Ref: ref, Count: len(matches), Candidates: matches[:min(len(matches), MaxCandidates)]}
}

// oneID reports whether every row is of one session id.
func oneID(rows []*jsonl.Listing) bool {
	for _, r := range rows {
		if r.ID != rows[0].ID {
			return false
		}
	}
	return true
}
