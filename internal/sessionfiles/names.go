package sessionfiles

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Pi's names for what it writes: a session file is <timestamp>_<id>.jsonl
// (FileName), inside a folder named after the cwd, --<cwd>-- (CwdFolderName).

// CwdFromFolderName reads a cwd back from the name of Pi's folder for it,
// "--home-dev-x--"; false for a name that is not one. CwdFolderName writes
// every / as -, so a - in the original path cannot be told apart: each -
// becomes /.
func CwdFromFolderName(dir string) (string, bool) {
	if len(dir) < 5 || !strings.HasPrefix(dir, "--") || !strings.HasSuffix(dir, "--") {
		return "", false
	}
	return "/" + strings.ReplaceAll(dir[2:len(dir)-2], "-", "/"), true
}

// FileName is Pi's name for a new session file: the header's timestamp with
// every ':' and '.' made '-', an underscore, the session id and ".jsonl".
func FileName(timestamp, id string) string {
	return strings.NewReplacer(":", "-", ".", "-").Replace(timestamp) + "_" + id + ".jsonl"
}

// ListedByPi reports whether Pi's session list (/resume, pi -r) reads a file
// of this name: it reads only names ending in .jsonl, as plain text, so a
// compressed session (.jsonl.gz, .jsonl.zst: what nightly archives) is not
// listed, though every pitool command reads it.
func ListedByPi(name string) bool { return strings.HasSuffix(name, ".jsonl") }

// FileStem is a file's name without its folder, a .gz or .zst suffix and
// .jsonl.
func FileStem(name string) string {
	base := filepath.Base(name)
	for _, suf := range []string{".gz", ".zst"} {
		base = strings.TrimSuffix(base, suf)
	}
	return strings.TrimSuffix(base, ".jsonl")
}

// sessionIDPattern is what Pi's assertValidSessionId accepts.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// fileTimePattern is the time FileName puts before the id: an ISO time with
// every ':' and '.' made '-' (2026-01-31T12-34-56-789Z).
var fileTimePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// IDFromFileName reads the session id back from a name FileName wrote
// (compressed or not): what follows the stem's last underscore, when what
// precedes it is FileName's time and Pi accepts the rest as a session id.
// Any other name (missing_header.jsonl) holds no id.
func IDFromFileName(name string) (string, bool) {
	stem := FileStem(name)
	k := strings.LastIndexByte(stem, '_')
	if k < 0 || !fileTimePattern.MatchString(stem[:k]) || !sessionIDPattern.MatchString(stem[k+1:]) {
		return "", false
	}
	return stem[k+1:], true
}
