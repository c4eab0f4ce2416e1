// Package sessionfiles finds session files: the paths a user names, folders
// searched recursively, and Pi's own sessions folder.
package sessionfiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
}

// Expand turns paths (files, folders and "-") into session files, folders
// searched recursively and sorted, in the order given.
func Expand(paths []string) ([]File, error) {
	var out []File
	for _, p := range paths {
		if p == "-" {
			out = append(out, File{Path: p, Named: true})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, File{Path: p, Named: true})
			continue
		}
		found, err := walk(p)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

func walk(root string) ([]File, error) {
	var out []File
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", root, err)
		}
		if d.Type().IsRegular() && IsSessionName(d.Name()) {
			out = append(out, File{Path: path})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
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
