package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/pitool/pitool/internal/sessionfiles"
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
//     temporary files left by a crash (.FILE.pitool-tmp-N);
//   - any other file whose first line, decompressed, is a JSON object with
//     a "type" member, as every session line is (a renamed session).
//
// Folders are searched as every folder command searches them
// (sessionfiles.ExpandMatching: links followed, each real folder once);
// devices, FIFOs and dangling links are left out, never opened.
func CheckFiles(paths []string) ([]string, error) {
	files, err := sessionfiles.ExpandMatching(paths, sessionfiles.Match{Name: holdsSessionName, Sniff: startsWithSessionLine})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if f.Special != "" || !f.Named && !exists(f.Path) {
			continue
		}
		out = append(out, f.Path)
	}
	return out, nil
}

// exists reports whether path (a link followed) names a file.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
