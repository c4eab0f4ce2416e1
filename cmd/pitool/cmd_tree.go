package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// treeCommand is a placeholder until the command lands.
func treeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "tree",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("tree is not built yet") },
	}
}
