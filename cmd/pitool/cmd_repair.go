package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

// repairCommand is a placeholder until issue 3 (repair) lands; that work replaces this file.
func repairCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:   "repair",
		Usage:  "(not built yet)",
		Hidden: true,
		Action: func(*cli.Context) error { return errors.New("repair is not built yet") },
	}
}
