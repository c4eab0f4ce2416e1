package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// ErrOutsideTree means a file found in a folder a command was named lies,
// by the time it is opened for writing, outside that folder: a name on its
// way was swapped for a symlink or moved after the folder was searched.
var ErrOutsideTree = errors.New("leads outside the folder named (a symlink or a move since the folder was searched); name it to write through it")

// tree is a folder a command was named and searched: the path as named
// (absolute) and where it really is.
type tree struct{ named, real string }

var trees struct {
	sync.Mutex
	list []tree
}

// ConfineTree says that every file under the folder named, as the path
// names it, is written only where it really lies inside that folder: each
// write that names such a path checks the folder it opened, through its
// descriptor, at the moment it writes (see confine), not when the folder
// was searched. A folder search of a command that writes calls it for each
// folder it searches (sessionfiles). A file named on its own is not confined.
func ConfineTree(named string) error {
	abs, err := filepath.Abs(named)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	trees.Lock()
	defer trees.Unlock()
	for _, t := range trees.list {
		if t.named == abs {
			return nil
		}
	}
	trees.list = append(trees.list, tree{named: abs, real: real})
	return nil
}

// treeOf returns the innermost confined folder that path, as it is named,
// lies under.
func treeOf(path string) (tree, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return tree{}, false
	}
	trees.Lock()
	defer trees.Unlock()
	var best tree
	found := false
	for _, t := range trees.list {
		if within(t.named, abs) && (!found || len(t.named) > len(best.named)) {
			best, found = t, true
		}
	}
	return best, found
}

// within reports whether path lies in folder (or is it), lexically.
func within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// confine checks that the folder d, opened to write path (as named), lies
// inside the confined folder path was found in, by asking the kernel where
// d's descriptor is: whatever the names on the way were swapped for
// between the search and the open, the descriptor is what is written
// through.
func confine(d *dir, path string) error {
	t, ok := treeOf(path)
	if !ok {
		return nil
	}
	where, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(d.fd()))
	if err != nil {
		return fmt.Errorf("%s: where its folder is: %w", path, err)
	}
	if !within(t.real, where) {
		return fmt.Errorf("%s: %w", path, ErrOutsideTree)
	}
	return nil
}

// openDirFor opens folder, where path (as named) is to be written, and
// confines it as path is.
func openDirFor(path, folder string) (*dir, error) {
	d, err := openDir(folder)
	if err != nil {
		return nil, err
	}
	if err := confine(d, path); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}
