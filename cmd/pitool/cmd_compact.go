package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// compactCommand is a placeholder until issue 4 (compact) lands; that work replaces this file.
func compactCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "compact",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("compact is not built yet") },
	}
}
