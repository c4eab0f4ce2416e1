package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/pitool/pitool/internal/sessionfiles"
)

// errNoSuchFolder is a sessions folder that does not exist.
var errNoSuchFolder = errors.New("no such folder")

// sessionsFolder returns dir, or Pi's sessions folder when dir is "", after
// checking that it is a folder. A missing folder is an error that names the
// path looked at and, for the default, where that path came from, so that a
// typo in $PI_CODING_AGENT_DIR is never mistaken for "nothing to do".
func sessionsFolder(dir string) (string, error) {
	from := ""
	if dir == "" {
		var err error
		if dir, err = sessionfiles.DefaultSessionsDir(); err != nil {
			return "", err
		}
		from = " (" + sessionfiles.AgentDirSource() + ")"
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dir, fmt.Errorf("%s: %w%s", dir, errNoSuchFolder, from)
	case err != nil:
		return dir, err
	case !info.IsDir():
		return dir, fmt.Errorf("%s: not a folder%s", dir, from)
	}
	return dir, nil
}

// lsFolder is sessionsFolder for ls, which, like Pi's /resume, lists nothing
// when Pi has not saved a session yet: only the sessions folder itself is
// missing, not the folder the user named or set in $PI_CODING_AGENT_DIR.
// It returns the folder and whether it exists.
func lsFolder(dir string) (string, bool, error) {
	named := dir != ""
	dir, err := sessionsFolder(dir)
	if err == nil || !errors.Is(err, errNoSuchFolder) || named {
		return dir, err == nil, err
	}
	agent, aerr := sessionfiles.AgentDir()
	if aerr != nil {
		return dir, false, aerr
	}
	if _, serr := os.Stat(agent); serr != nil && os.Getenv("PI_CODING_AGENT_DIR") != "" {
		return dir, false, fmt.Errorf("%s: %w (from PI_CODING_AGENT_DIR)", agent, errNoSuchFolder)
	}
	return dir, false, nil
}

// noFilesError is returned when the folders named hold no session file.
func noFilesError(paths []string) error {
	return fmt.Errorf("%s: %w", strings.Join(paths, ", "), errNoFiles)
}
