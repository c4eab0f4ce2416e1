package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// sniffLimit is how much of a file's decompressed start CheckFiles reads to
// tell whether its first line is a session line.
const sniffLimit = 64 << 10

// CheckFiles expands paths (files, folders and "-") into the files a secret
// check must read. A named file is always read. Under a folder, every
// regular file (or link to one) that may hold session lines is:
//   - any file whose name contains ".jsonl" or ".quarantine": sessions,
//     their .gz and .zst, backups (FILE.bak, FILE.bak.N), quarantines and
//     temporary files left by a crash (.FILE.tmp-N);
//   - any other file whose first line, decompressed, is a JSON object with
//     a "type" member, as every session line is (a renamed session).
//
// Folders are searched recursively and sorted, following links to folders
// (each real folder once); devices and FIFOs are never opened.
func CheckFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if p == jsonl.StdinName || err == nil && !info.IsDir() {
			out = append(out, p)
			continue
		}
		if err != nil {
			return nil, err
		}
		found, err := checkWalk(p, map[string]bool{})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// checkWalk lists the files under root that may hold session lines; seen
// holds the real folders already walked.
func checkWalk(root string, seen map[string]bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root+string(filepath.Separator), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", root, err)
		}
		switch {
		case d.IsDir():
			real, err := filepath.EvalSymlinks(path)
			if err != nil || seen[real] {
				return fs.SkipDir
			}
			seen[real] = true
		case linksToDir(path, d):
			sub, err := checkWalk(path, seen)
			out = append(out, sub...)
			return err
		case isRegular(path, d) && (holdsSessionName(d.Name()) || startsWithSessionLine(path)):
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// linksToDir reports whether d is a link to a folder.
func linksToDir(path string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// isRegular reports whether d is a regular file or a link to one.
func isRegular(path string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return d.Type().IsRegular()
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// holdsSessionName reports whether a file name marks session lines for a
// secret check.
func holdsSessionName(name string) bool {
	return strings.Contains(name, ".jsonl") || strings.Contains(name, ".quarantine")
}

// startsWithSessionLine reports whether the file's first non-blank line,
// decompressed, is a JSON object with a "type" member. A first line longer
// than sniffLimit counts when it starts like one.
func startsWithSessionLine(path string) bool {
	src, err := jsonl.Open(path, nil)
	if err != nil {
		return false
	}
	defer src.Close()
	head, _ := io.ReadAll(io.LimitReader(src.Reader(), sniffLimit))
	cut := len(head) == sniffLimit
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for len(head) > 0 {
		line, rest, found := bytes.Cut(head, []byte("\n"))
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return isEntryLine(line, found || !cut)
		}
		head = rest
	}
	return false
}

// isEntryLine reports whether line is (or, when cut short, begins like) a
// JSON object with a "type" member.
func isEntryLine(line []byte, whole bool) bool {
	if line[0] != '{' {
		return false
	}
	if !whole {
		return bytes.Contains(line, []byte(`"type"`))
	}
	var e struct {
		Type json.RawMessage `json:"type"`
	}
	return json.Unmarshal(line, &e) == nil && len(e.Type) > 0
}
