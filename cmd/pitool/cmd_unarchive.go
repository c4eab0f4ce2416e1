package main

import (
	"github.com/pitool/pitool/archive"
	"github.com/pitool/pitool/internal/runner"
	"github.com/urfave/cli/v2"
)

// unarchiveCommand is pitool unarchive: the archive package's Unarchive per
// ARCHIVE.
func unarchiveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "unarchive",
		Usage:     "bring archived sessions back where Pi's /resume lists them (undoes nightly --archive-after)",
		ArgsUsage: "ARCHIVE…",
		Description: `Decompresses each ARCHIVE, X.jsonl.zst (what nightly --archive-after writes)
or X.jsonl.gz, to X.jsonl beside it, with the archive's owner, group and mode,
reads it back to check it, then removes the archive, holding the locks of
both files (a nightly run at that moment, which would take the pair for an
interrupted archive, cannot remove either): Pi's /resume lists X.jsonl again.
pitool ls --all shows the archived sessions of a folder.

Refuses, changing nothing, when ARCHIVE is not a Pi session, not compressed,
not named X.jsonl.zst or X.jsonl.gz, or not a regular file (a symlink: name
the file it points to), and when X.jsonl already exists with other bytes: it
is never overwritten. An X.jsonl that holds exactly the archive's bytes (an
unarchive that was interrupted) is kept and the archive removed. A truncated
archive is not restored: pitool repair -o X.jsonl ARCHIVE keeps every
complete line it holds.

The restored file is new, so nightly --archive-after counts its idle time
from now. Prints each X.jsonl restored; exit 2 when any ARCHIVE failed.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("unarchive takes at least one ARCHIVE")
			}
			failed := 0
			err := runner.Each(c.Context, c.Args().Slice(), runner.Options{}, func(path string) error {
				if err := restore(c, e, path); err != nil {
					e.errorf("%s", fileError(path, err))
					e.candidateHints(err)
					failed++
				}
				return nil
			})
			if err != nil {
				return err
			}
			if failed > 0 {
				return errReported
			}
			return nil
		},
	}
}

// restore unarchives the archive path names (a path, or a session id or
// prefix: sessionArg) and prints the session file it restored.
func restore(c *cli.Context, e *env, path string) error {
	path, err := sessionArg(c, path)
	if err != nil {
		return err
	}
	dst, err := archive.Unarchive(path)
	if err != nil {
		return err
	}
	printLine(e.stdout, "%s", dst)
	return nil
}
