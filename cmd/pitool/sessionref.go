package main

import (
	"errors"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/urfave/cli/v2"
)

// sessionArg resolves what the user named as one session, a path, "-", a
// session id or prefix of one, or "latest" (sessionfiles.Resolve), in Pi's
// sessions folder; latest is of the project of --cwd when the command has
// that flag and it is given.
func sessionArg(c *cli.Context, arg string) (string, error) {
	path, err := sessionfiles.Resolve(c.Context, arg, sessionfiles.RefOptions{Cwd: c.String("cwd")})
	if ae := (*sessionfiles.AmbiguousError)(nil); errors.As(err, &ae) {
		return "", &ambiguousError{ae}
	}
	return path, err
}

// ambiguousError is a usage error (exit 2) that lists the sessions an id
// prefix matches, as hints after the error (candidateHints).
type ambiguousError struct{ *sessionfiles.AmbiguousError }

// candidateHints lists, one hint each, the sessions an ambiguous prefix in
// err matches: id, last activity, first message and path.
func (e *env) candidateHints(err error) {
	var ae *ambiguousError
	if !errors.As(err, &ae) {
		return
	}
	for _, r := range ae.Candidates {
		e.hintf("%s  %s  %q  %s", r.ID, r.Modified, clip(r.FirstMessage, 40), r.Path)
	}
	if more := ae.Count - len(ae.Candidates); more > 0 {
		e.hintf("and %d more", more)
	}
}
