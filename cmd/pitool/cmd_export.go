package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// exportCommand is a placeholder until issue 6 (export) lands; that work replaces this file.
func exportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "export",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("export is not built yet") },
	}
}
