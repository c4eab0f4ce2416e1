package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// flagsFirst lets flags follow the file names, as users expect
// (`pitool redact FILE -o OUT`): urfave/cli v2 stops reading flags at the first
// argument, so the command's flags (with their values) are moved in front of
// its arguments before parsing. "--" ends the reordering, and "-" stays an
// argument (standard input). The shell completion flag stays last, where
// urfave/cli looks for it.
func flagsFirst(app *cli.App, args []string) []string {
	if n := len(args); n > 0 && args[n-1] == completionFlag {
		return append(flagsFirst(app, args[:n-1]), completionFlag)
	}
	if len(args) < 2 {
		return args
	}
	cmd := findCommand(app.Commands, args[1])
	if cmd == nil {
		return args
	}
	rest := args[2:]
	head := append([]string{}, args[:2]...)
	if len(rest) > 0 && len(cmd.Subcommands) > 0 {
		if sub := findCommand(cmd.Subcommands, rest[0]); sub != nil {
			head, rest, cmd = append(head, rest[0]), rest[1:], sub
		}
	}
	flags, positional := splitFlags(cmd, rest)
	return append(append(head, flags...), positional...)
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// splitFlags separates a command's flags, each with its value when it takes
// one, from its positional arguments, keeping the order within each.
func splitFlags(cmd *cli.Command, args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(positional, args[i:]...)
		case a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			if takesValue(cmd, a) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	return flags, positional
}

// takesValue reports whether flag arg (without an inline =value) is one of
// cmd's flags that needs a value.
func takesValue(cmd *cli.Command, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if dv, ok := f.(cli.DocGenerationFlag); ok {
				return dv.TakesValue()
			}
			return true
		}
	}
	return false
}
