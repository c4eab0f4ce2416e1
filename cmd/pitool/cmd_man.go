package main

import (
	"fmt"
	"strings"

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
			_, err := fmt.Fprint(e.stdout, manPage(c.App))
			return err
		},
	}
}

// manPage renders app's manual page in roff: the help of pitool and of
// every command, word for word, each description kept as laid out in
// --help (a no-fill block) so its lists and examples read as they do there.
func manPage(app *cli.App) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s %d\n.SH NAME\n%s \\- %s\n", app.Name, manSection, app.Name, roffText(app.Usage))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n[\\fB\\-\\-help\\fR] [\\fB\\-\\-version\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n", app.Name)
	fmt.Fprintf(&b, ".SH DESCRIPTION\n%s", roffBlock(app.Description))
	b.WriteString(".SH COMMANDS\n")
	for _, c := range app.Commands {
		manCommandSection(&b, app.Name, c)
	}
	return b.String()
}

// manCommandSection writes the subsection of command c (and of its
// subcommands), named as it is typed after prefix ("pitool").
func manCommandSection(b *strings.Builder, prefix string, c *cli.Command) {
	if c.Hidden {
		return
	}
	name := prefix + " " + c.Name
	fmt.Fprintf(b, ".SS %s\n%s\n", roffText(strings.TrimSpace(name+" "+c.ArgsUsage)), roffText(c.Usage))
	if c.Description != "" {
		b.WriteString(".PP\n" + roffBlock(c.Description))
	}
	for _, f := range c.VisibleFlags() {
		if f != cli.HelpFlag { // every command has it: the synopsis says so once
			manFlag(b, f)
		}
	}
	for _, sub := range c.Subcommands {
		manCommandSection(b, name, sub)
	}
}

// manFlag writes flag f as --help shows it: its names and value, then its
// usage with its default.
func manFlag(b *strings.Builder, f cli.Flag) {
	head, usage, _ := strings.Cut(cli.FlagStringer(f), "\t")
	fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n%s\n", roffText(head), roffText(usage))
}

// roffBlock writes text as a no-fill block, its lines as they are.
func roffBlock(text string) string {
	return ".nf\n" + roffText(strings.TrimRight(text, "\n")) + "\n.fi\n"
}

// roffText escapes text for roff: a backslash and a dash are written as
// roff's own (\e, \-), and a line starting with a dot or a quote, which
// roff would read as a request, starts with the zero-width \&. Angle
// brackets and underscores are plain text in roff and stay as they are.
func roffText(text string) string {
	text = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(text)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
