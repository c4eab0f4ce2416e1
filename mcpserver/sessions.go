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

// candidatesShown is how many sessions an ambiguous prefix's error names.
const candidatesShown = 10

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
			l, err := lister.ListFile(files[i], jsonl.ListOptions{Compressed: true, KeepCwd: keep})
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

// ResolveRef is the default Resolver: a path of a session file under the
// folders, "latest" (the session active last, in project when set), or a
// session id or a unique prefix of one, read from Pi's file names
// (<time>_<id>.jsonl) and from the header of a file named otherwise.
func ResolveRef(ctx context.Context, folders []string, ref, project string) (string, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", errors.New(`no session named: give a session id, a unique prefix of one, a file path, or "latest"`)
	}
	files, err := sessionFiles(folders)
	if err != nil {
		return "", err
	}
	if ref == "latest" {
		return latest(ctx, files, project)
	}
	if path, ok := byPath(files, ref); ok {
		return path, nil
	}
	return byID(files, ref)
}

// latest is the file of the session active last.
func latest(ctx context.Context, files []string, project string) (string, error) {
	rows, err := listFiles(ctx, files, underProject(project))
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		if project != "" {
			return "", fmt.Errorf("no session of project %s: list_sessions without a project lists them all", project)
		}
		return "", errors.New("there is no session yet")
	}
	return rows[0].Path, nil
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

// byID finds the one file whose session id is ref or starts with it.
func byID(files []string, ref string) (string, error) {
	if strings.ContainsRune(ref, filepath.Separator) {
		return "", fmt.Errorf("no session file %s under the folders served: name a session by its id, or list_sessions to find it", ref)
	}
	var exact, prefixed []string
	var lister jsonl.Lister
	for _, f := range files {
		id, ok := sessionfiles.IDFromFileName(filepath.Base(f))
		if !ok {
			l, err := lister.ListFile(f, jsonl.ListOptions{Compressed: true})
			if err != nil {
				continue
			}
			id = l.ID
		}
		switch {
		case id == ref:
			exact = append(exact, f)
		case strings.HasPrefix(id, ref):
			prefixed = append(prefixed, f)
		}
	}
	if len(exact) == 0 {
		exact = prefixed
	}
	switch len(exact) {
	case 0:
		return "", fmt.Errorf("no session with id or id prefix %q: list_sessions or search_sessions finds sessions and their ids", ref)
	case 1:
		return exact[0], nil
	}
	return "", ambiguous(ref, exact)
}

// ambiguous is the error of a prefix that several sessions have, naming them.
func ambiguous(ref string, files []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%q names %d sessions; give more of the id, or one of these paths:", ref, len(files))
	for _, f := range files[:min(len(files), candidatesShown)] {
		b.WriteString("\n  " + f)
	}
	if n := len(files) - candidatesShown; n > 0 {
		fmt.Fprintf(&b, "\n  and %d more", n)
	}
	return errors.New(b.String())
}
