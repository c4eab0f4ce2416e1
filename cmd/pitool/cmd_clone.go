package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// cloneCommand is a placeholder until issue 6 (clone) lands; that work replaces this file.
func cloneCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "clone",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("clone is not built yet") },
	}
}
