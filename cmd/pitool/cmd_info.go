package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// infoCommand is a placeholder until the command lands.
func infoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "info",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("info is not built yet") },
	}
}
