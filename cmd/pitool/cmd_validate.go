package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// validateCommand is a placeholder until issue 3 (validate) lands; that work replaces this file.
func validateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "validate",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("validate is not built yet") },
	}
}
