package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// nightlyCommand is a placeholder until issue 4 (nightly) lands; that work replaces this file.
func nightlyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "nightly",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("nightly is not built yet") },
	}
}
