package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// redactCommand is a placeholder until issue 5 (redact) lands; that work replaces this file.
func redactCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "redact",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("redact is not built yet") },
	}
}
