package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// sessionFiles lists the session files under folders (plain, .gz and .zst),
// leaving out what is not a regular file: it is never opened.
func sessionFiles(folders []string) ([]string, error) {
	found, err := sessionfiles.Expand(folders)
	if err != nil {
		return nil, fmt.Errorf("finding the sessions: %w", err)
	}
	files := make([]string, 0, len(found))
	for _, f := range found {
		if f.NotRegular() == nil {
			files = append(files, f.Path)
		}
	}
	return files, nil
}

// underProject says whether a session's cwd is project or lies under it;
// project "" keeps every session.
func underProject(project string) func(cwd string) bool {
	if project == "" {
		return nil
	}
	project = filepath.Clean(project)
	return func(cwd string) bool {
		cwd = filepath.Clean(cwd)
		return cwd == project || strings.HasPrefix(cwd, project+string(filepath.Separator)) || project == string(filepath.Separator)
	}
}

// listFiles reads the Listing of each file in parallel, keeping the sessions
// keep accepts (nil: all), newest first. A file that is not a session, or
// cannot be read, is left out.
func listFiles(ctx context.Context, files []string, keep func(cwd string) bool) ([]*jsonl.Listing, error) {
	rows := make([]*jsonl.Listing, len(files))
	err := parallel.Each(ctx, len(files), 0, func() func(i int) {
		var lister jsonl.Lister
		return func(i int) {
			// an archive is read whole as a stream; a plain file only at its head and tail
			archived := !sessionfiles.ListedByPi(files[i])
			l, err := lister.ListFile(files[i], jsonl.ListOptions{Compressed: archived, KeepCwd: keep})
			if errors.Is(err, jsonl.ErrCompressed) { // a .jsonl holding compressed bytes
				l, err = lister.ListFile(files[i], jsonl.ListOptions{Compressed: true, KeepCwd: keep})
			}
			if err == nil {
				rows[i] = l
			}
		}
	})
	if err != nil {
		return nil, err
	}
	rows = slices.DeleteFunc(rows, func(l *jsonl.Listing) bool { return l == nil })
	slices.SortStableFunc(rows, func(a, b *jsonl.Listing) int {
		if c := strings.Compare(b.Modified, a.Modified); c != 0 {
			return c
		}
		return strings.Compare(b.Path, a.Path)
	})
	return rows, nil
}

// ResolveRef is the default Resolver: pitool's naming of a session
// (sessionfiles.Resolve, Pi's --session: a path, "latest", an id or a
// unique prefix of one) in each folder served, where a path must be one of
// the session files under the folders: the agent reads nothing else.
// project sets the project of "latest", and the one a prefix prefers.
func ResolveRef(ctx context.Context, folders []string, ref, project string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", errors.New(`no session named: give a session id, a unique prefix of one, a file path, or "latest"`)
	}
	files, err := sessionFiles(folders)
	if err != nil {
		return "", err
	}
	if path, ok := byPath(files, ref); ok {
		return path, nil
	}
	if !sessionfiles.IsRef(ref) {
		return "", fmt.Errorf("no session file %s under the folders served: name a session by its id, or list_sessions to find it", ref)
	}
	var found []string
	for _, dir := range folders {
		path, err := sessionfiles.Resolve(ctx, ref, sessionfiles.RefOptions{Dir: dir, Cwd: project})
		var notFound *sessionfiles.NotFoundError
		switch {
		case errors.As(err, &notFound):
		case err != nil:
			return "", refError(err)
		default:
			if path, ok := byPath(files, path); ok {
				found = append(found, path)
			}
		}
	}
	return oneOf(ctx, ref, project, found)
}

// oneOf is the session of ref among what each folder gave: none is an
// error that says what to call, several are the latest one for "latest",
// else an ambiguous prefix.
func oneOf(ctx context.Context, ref, project string, found []string) (string, error) {
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0 && ref == sessionfiles.Latest && project != "":
		return "", fmt.Errorf("no session of project %s: list_sessions without a project lists them all", project)
	case len(found) == 0 && ref == sessionfiles.Latest:
		return "", errors.New("there is no session yet")
	case len(found) == 0:
		return "", fmt.Errorf("no session with id or id prefix %q: list_sessions or search_sessions finds sessions and their ids", ref)
	}
	rows, err := listFiles(ctx, found, nil)
	if err != nil {
		return "", err
	}
	if ref == sessionfiles.Latest && len(rows) > 0 {
		return rows[0].Path, nil
	}
	return "", refError(&sessionfiles.AmbiguousError{Ref: ref, Count: len(rows), Candidates: rows[:min(len(rows), sessionfiles.MaxCandidates)]})
}

// byPath finds ref among the files as a path.
func byPath(files []string, ref string) (string, bool) {
	if !strings.ContainsRune(ref, filepath.Separator) {
		return "", false
	}
	abs, err := filepath.Abs(ref)
	if err != nil {
		return "", false
	}
	for _, f := range files {
		if fa, err := filepath.Abs(f); err == nil && fa == abs {
			return f, true
		}
	}
	return "", false
}

// refError says what a model can do about a resolver's error: an
// ambiguous prefix names its candidates.
func refError(err error) error {
	var amb *sessionfiles.AmbiguousError
	if !errors.As(err, &amb) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%q names %d sessions; give more of the id, or one of these:", amb.Ref, amb.Count)
	for _, c := range amb.Candidates {
		fmt.Fprintf(&b, "\n  %s  %s  %s", c.ID, c.Modified, c.Path)
		if c.Name != "" {
			b.WriteString("  " + clip(c.Name, 80))
		}
	}
	if n := amb.Count - len(amb.Candidates); n > 0 {
		fmt.Fprintf(&b, "\n  and %d more", n)
	}
	return errors.New(b.String())
}
