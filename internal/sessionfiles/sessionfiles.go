// Package sessionfiles finds session files: the paths a user names, folders
// searched recursively (following symlinks, as Pi does), and Pi's own
// sessions folder.
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

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// Suffixes are the file name endings that mark a session file in a folder.
var Suffixes = []string{".jsonl", ".jsonl.gz", ".jsonl.zst"}

// IsSessionName reports whether a file name looks like a session file.
func IsSessionName(name string) bool {
	for _, s := range Suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// File is one session file found, and whether the user named it directly.
type File struct {
	Path  string
	Named bool // named on the command line (not found inside a folder)
	// Outside is set for a file found in a folder whose real location, after
	// following symlinks, lies outside the folder the user named. Such a file
	// is read, but commands that write must not write through the link.
	Outside bool
	// Special names what a file found in a folder is when it carries a
	// session's name but is not a regular file ("a FIFO", "a device", "a
	// socket"). It is never opened: reading a FIFO blocks, and no command
	// may write to one in a folder. Commands list it as skipped.
	Special string
	// Info is the stat the walk took of a regular file found in a folder
	// (following a symlink, as reading it does), before anything read it;
	// nil when it took none. nightly compares it with its state file
	// instead of taking another. On unix its Sys is a *unix.Stat_t
	// (golang.org/x/sys/unix).
	Info os.FileInfo
}

// NotRegular returns the reason a Special file is skipped, as the
// *jsonl.NotSessionError every folder command already lists, or nil.
func (f File) NotRegular() *jsonl.NotSessionError {
	if f.Special == "" {
		return nil
	}
	return &jsonl.NotSessionError{File: f.Path, Reason: f.Special + ", not a regular file"}
}

// Expand turns paths (files, folders and "-") into session files, folders
// searched recursively and sorted, in the order given. Symlinked folders and
// files are followed; a folder reached twice (a symlink loop, or two links to
// one folder) is searched once, and a file reached twice is listed once. A
// path that does not exist but names a session (a session id, a prefix of
// one, or latest: Resolve) stands for that session's file.
func Expand(paths []string) ([]File, error) {
	return ExpandMatching(paths, Match{Name: IsSessionName})
}

// ExpandEveryPath is Expand listing a file reached by several paths under
// each of them (Match.EveryPath), as Pi's /resume lists them: for commands
// that only read.
func ExpandEveryPath(paths []string) ([]File, error) {
	return ExpandMatching(paths, Match{Name: IsSessionName, EveryPath: true})
}

// Match says which files a folder search lists. Name matches a file by its
// name; Sniff, when set, also lists a regular file whose name does not match
// but whose content does. Neither is asked to open anything but a regular
// file, so a FIFO never blocks a search. Name is called from the goroutines
// that read folders ahead of the search (ahead.go), Sniff from the search's
// alone.
type Match struct {
	Name  func(name string) bool
	Sniff func(path string) bool
	// EveryPath lists a file reached by several paths (a symlink to a file
	// listed already, two links to one file) under each of them, as Pi's
	// /resume lists every name a folder holds. Without it a file is listed
	// once, so that commands that write never write one file twice.
	EveryPath bool
}

// ExpandMatching is Expand listing the files m matches instead of session
// files: the same symlink rules, loop guard and order.
func ExpandMatching(paths []string, m Match) ([]File, error) {
	var out []File
	for _, p := range paths {
		if p == "-" {
			out = append(out, File{Path: p, Named: true})
			continue
		}
		p, err := Resolve(context.Background(), p, RefOptions{})
		if err != nil {
			return nil, err
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, File{Path: p, Named: true})
			continue
		}
		found, err := walk(p, m)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = found // the walk's list itself, not a copy of it
			continue
		}
		out = append(out, found...)
	}
	return out, nil
}

// walker searches one named folder: first the folders and files reached
// without a symlink, then, link by link, what the symlinks lead to, so that
// a file reached both ways is listed by its direct path.
type walker struct {
	realRoot string           // the named folder with every symlink resolved
	dirs     map[fileKey]bool // folders searched already
	// files is the index in out of each file listed that the walk may
	// reach again: until it follows symlinks only files with more than one
	// name (hard links), since a file with one name is met once in a tree;
	// from then on, every file (indexFiles). A map of 10,000 files was a
	// tenth of the walk's own work (issue 28).
	files     map[fileKey]int
	following bool   // the walk follows symlinks: files indexes every file
	links     []link // symlinks met, to follow after the direct tree
	match     Match
	out       []File
	buf       dirents  // a folder is read into it (folder.list)
	readers   *readers // read subfolders ahead of the search (ahead.go)
}

// link is a symlink met in a folder at depth.
type link struct {
	path  string
	name  string
	depth int
}

// entry is a folder's entry: its path, its name (the path's last element,
// a slice of it), and its type (the type bits of a FileMode).
type entry struct {
	path string
	name string
	mode fs.FileMode
}

// newEntry is the entry name of the folder dir.
func newEntry(dir, name string, mode fs.FileMode) entry {
	path := childPath(dir, name)
	return entry{path: path, name: path[len(path)-len(name):], mode: mode}
}

// readDir lists the entries of folder path, sorted by name.
func readDir(path string) ([]entry, error) {
	ds, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	out := make([]entry, len(ds))
	for i, d := range ds {
		out[i] = newEntry(path, d.Name(), d.Type())
	}
	return out, nil
}

func walk(root string, m Match) ([]File, error) {
	r := startReaders(m)
	defer r.stop()
	return walkWith(root, m, r)
}

// walkWith is walk with the readers r (nil: none).
func walkWith(root string, m Match, r *readers) ([]File, error) {
	real, err := realPath(root)
	if err != nil {
		return nil, err
	}
	if !m.EveryPath {
		// a command that may write: what it finds here it writes only
		// where it really lies in here, checked at each write
		if err := safefile.ConfineTree(root); err != nil {
			return nil, err
		}
	}
	w := &walker{realRoot: real, dirs: map[fileKey]bool{}, files: map[fileKey]int{}, match: m, readers: r}
	if err := w.dir(filepath.Clean(root), false, 0); err != nil {
		return nil, err
	}
	if len(w.links) > 0 {
		w.indexFiles()
	}
	for i := 0; i < len(w.links); i++ { // following a link may meet more
		if err := w.follow(w.links[i]); err != nil {
			return nil, err
		}
	}
	// a tree whose names hold no byte below '/' is found in order already
	byPath := func(a, b File) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(w.out, byPath) {
		slices.SortFunc(w.out, byPath)
	}
	return w.out, nil
}

// errIsLink is a folder entry listed as a folder that is a symlink when
// the walk opens it.
var errIsLink = errors.New("a symlink now")

// MaxDepth is how deep folders are searched below a named folder: a guard
// against symlink loops where folders cannot be told apart by inode.
const MaxDepth = 64

// dir searches folder path (a clean path) at depth, following a symlink
// (the named folder, or one a link leads to); outside says whether it lies
// outside the root.
func (w *walker) dir(path string, outside bool, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%s: folders nested more than %d deep (a symlink loop?)", path, MaxDepth)
	}
	f, err := openFolder(path)
	if err != nil {
		return err
	}
	return w.search(read(f, w.match, &w.buf), outside, depth)
}

// search searches the folder l lists, then closes it.
func (w *walker) search(l *listing, outside bool, depth int) error {
	defer l.close()
	if l.err != nil {
		return l.err
	}
	if l.keyed {
		if w.dirs[l.key] {
			return nil
		}
		w.dirs[l.key] = true
	}
	if l.listErr != nil {
		return l.listErr
	}
	subs := w.subfoldersOf(l, depth+1)
	defer subs.drop()
	for i := range l.entries {
		if err := w.entry(l, i, subs, outside, depth); err != nil {
			return err
		}
	}
	return nil
}

// entry handles entry i of listing l; a symlink is kept for later.
func (w *walker) entry(l *listing, i int, subs *subfolders, outside bool, depth int) error {
	d := l.entries[i]
	switch {
	case d.mode&fs.ModeSymlink != 0:
		w.links = append(w.links, link{d.path, d.name, depth})
	case d.mode.IsDir():
		return w.enter(d, w.take(subs), outside, depth+1)
	default:
		return w.leaf(d.path, d.name, d.mode, outside, l, i)
	}
	return nil
}

// childPath is filepath.Join(dir, name) for a clean dir and a name read
// from it, without cleaning the result again.
func childPath(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// leaf lists a file the search matches: a regular file by its name or, with
// a Sniff, its content; anything else that carries a matching name as
// Special, never opened. It is entry i of listing l, or with l nil a file
// reached through a symlink (stat'ed by its path).
func (w *walker) leaf(path, name string, mode os.FileMode, outside bool, l *listing, i int) error {
	switch {
	case mode.IsRegular() && (w.match.Name(name) || w.match.Sniff != nil && w.match.Sniff(path)):
		return w.file(path, outside, l, i)
	case !mode.IsRegular() && w.match.Name(name):
		w.add(File{Path: path, Outside: outside, Special: jsonl.SpecialKind(mode)})
	}
	return nil
}

// follow resolves a symlink and searches or lists what it leads to.
func (w *walker) follow(l link) error {
	info, err := statPath(l.path)
	if err != nil {
		return w.dangling(l.path, l.name)
	}
	outside, err := w.leadsOutside(l.path)
	if err != nil {
		return err
	}
	if mode := info.Mode().Type(); !mode.IsDir() {
		return w.leaf(l.path, l.name, mode, outside, nil, 0)
	}
	return w.dir(l.path, outside, l.depth+1)
}

// dangling lists a broken symlink that carries a session name, so that the
// command reports it (no such file) rather than silently passing over it.
func (w *walker) dangling(path, name string) error {
	if w.match.Name(name) {
		w.add(File{Path: path})
	}
	return nil
}

// leadsOutside reports whether symlink path resolves to a place outside the root.
func (w *walker) leadsOutside(path string) (bool, error) {
	real, err := realPath(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(w.realRoot, real)
	return err != nil || !filepath.IsLocal(rel), nil
}

// realPath is path made absolute, with every symlink resolved.
func realPath(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

// file lists a session file once, preferring a path inside the root; with
// EveryPath, under every path, without a stat to know it again. It is
// entry i of listing l, or with l nil stat'ed by its path.
func (w *walker) file(path string, outside bool, l *listing, i int) error {
	if w.match.EveryPath {
		w.add(File{Path: path, Outside: outside})
		return nil
	}
	info, err := w.stat(path, l, i)
	if err != nil {
		return err
	}
	key, ok := keyOf(info)
	if i, seen := w.files[key]; ok && seen {
		if w.out[i].Outside && !outside {
			w.out[i] = File{Path: path, Info: info}
		}
		return nil
	}
	if ok && (w.following || hardLinked(info)) {
		w.files[key] = len(w.out)
	}
	w.add(File{Path: path, Outside: outside, Info: info})
	return nil
}

// add lists f, doubling the list's room when it is full: append grows a
// long slice by a quarter, which over 10,000 files allocated five times the
// final list, every byte of it fresh memory (issue 28).
func (w *walker) add(f File) {
	if len(w.out) == cap(w.out) {
		w.out = slices.Grow(w.out, max(len(w.out), 64))
	}
	w.out = append(w.out, f)
}

// indexFiles adds every file listed so far to files, before the walk
// follows symlinks, which may lead to any of them.
func (w *walker) indexFiles() {
	w.following = true
	for i, f := range w.out {
		if f.Info == nil {
			continue
		}
		if key, ok := keyOf(f.Info); ok {
			if _, seen := w.files[key]; !seen {
				w.files[key] = i
			}
		}
	}
}

// stat is the stat of a file found: entry i of listing l, or with l nil
// stat'ed by its path.
func (w *walker) stat(path string, l *listing, i int) (fs.FileInfo, error) {
	if l == nil {
		return statPath(path)
	}
	return l.stat(i)
}

// AgentDir returns Pi's agent folder: $PI_CODING_AGENT_DIR, or ~/.pi/agent.
func AgentDir() (string, error) {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home folder: %w", err)
	}
	return filepath.Join(home, ".pi", "agent"), nil
}

// AgentDirSource says where AgentDir took the folder from, for messages:
// "from PI_CODING_AGENT_DIR" or "Pi's default, ~/.pi/agent".
func AgentDirSource() string {
	if os.Getenv("PI_CODING_AGENT_DIR") != "" {
		return "from PI_CODING_AGENT_DIR"
	}
	return "Pi's default, ~/.pi/agent"
}

// DefaultSessionsDir returns Pi's sessions folder, AgentDir()/sessions.
func DefaultSessionsDir() (string, error) {
	d, err := AgentDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sessions"), nil
}

// CwdFolderName is the folder Pi keeps a cwd's sessions in:
// "--<cwd without its leading separator, with / \ : replaced by ->--".
func CwdFolderName(cwd string) string {
	trimmed := cwd
	if strings.HasPrefix(cwd, "/") || strings.HasPrefix(cwd, `\`) {
		trimmed = cwd[1:]
	}
	return "--" + strings.NewReplacer("/", "-", `\`, "-", ":", "-").Replace(trimmed) + "--"
}
