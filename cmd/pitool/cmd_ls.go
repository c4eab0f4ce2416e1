package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// lsCommand is a placeholder until the command lands.
func lsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "ls",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("ls is not built yet") },
	}
}
