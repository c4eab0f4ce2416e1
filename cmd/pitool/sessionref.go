package main

import (
	"errors"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/textout"
	"github.com/urfave/cli/v2"
)

// sessionArg resolves what the user named as one session, a path, "-", a
// session id or prefix of one, or "latest" (sessionfiles.Resolve), in Pi's
// sessions folder; latest is of the project of --cwd when the command has
// that flag and it is given.
func sessionArg(c *cli.Context, arg string) (string, error) {
	return sessionfiles.Resolve(c.Context, arg, sessionfiles.RefOptions{Cwd: c.String("cwd")})
}

// sessionArgs is sessionArg of each argument, in order.
func sessionArgs(c *cli.Context, args []string) ([]string, error) {
	paths := make([]string, len(args))
	for i, arg := range args {
		p, err := sessionArg(c, arg)
		if err != nil {
			return nil, err
		}
		paths[i] = p
	}
	return paths, nil
}

// candidateHints lists, one hint each, the sessions that an ambiguous id
// prefix in err matches: id, last activity, first message and path.
func (e *env) candidateHints(err error) {
	var ae *sessionfiles.AmbiguousError
	if !errors.As(err, &ae) {
		return
	}
	for _, r := range ae.Candidates {
		e.hintf("%s  %s  %q  %s", r.ID, r.Modified, textout.Clip(r.FirstMessage, 40), r.Path)
	}
	if more := ae.Count - len(ae.Candidates); more > 0 {
		e.hintf("and %d more", more)
	}
}
