package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// manSection is the manual section of pitool's page: user commands.
const manSection = 1

func manCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "man",
		Usage: "print pitool's manual page (roff)",
		Description: `The page docs/pitool.1 in the repository is this output. Read it with
  pitool man | man -l -
or install it:
  pitool man > /usr/local/share/man/man1/pitool.1`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 0 {
				return usagef("man takes no arguments")
			}
			page, err := manPage(c.App)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, page)
			return err
		},
	}
}

// manPage renders app's manual page in roff.
func manPage(app *cli.App) (string, error) {
	page, err := app.ToManWithSection(manSection)
	if err != nil {
		return "", fmt.Errorf("man page: %w", err)
	}
	return page, nil
}
