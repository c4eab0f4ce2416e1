package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// forkCommand is a placeholder until issue 6 (fork) lands; that work replaces this file.
func forkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "fork",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("fork is not built yet") },
	}
}
