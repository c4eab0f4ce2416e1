package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
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

// appFlags are the flags pitool takes before a command.
var appFlags = []string{"help", "h", "version", "v"}

// helpArgs turns "pitool help [COMMAND]" into "pitool [COMMAND] --help".
func helpArgs(args []string) []string {
	if len(args) < 2 || args[1] != "help" || args[len(args)-1] == completionFlag {
		return args
	}
	return append(append([]string{args[0]}, args[2:]...), "--help")
}

// checkArgs refuses, before any command runs, an unknown command, a flag
// the command does not have and a value its flag cannot take, each error
// naming what was given and what would do.
func checkArgs(app *cli.App, args []string) error {
	if len(args) < 2 || args[len(args)-1] == completionFlag {
		return nil
	}
	if strings.HasPrefix(args[1], "-") {
		return checkAppFlag(args[1])
	}
	cmd := findCommand(app.Commands, args[1])
	if cmd == nil {
		return &unknownCommandError{kind: "command", name: args[1], suggest: suggestCommand(app.Commands, args[1]), parent: "pitool"}
	}
	rest, path := args[2:], "pitool "+cmd.Name
	if len(rest) > 0 && len(cmd.Subcommands) > 0 {
		sub := findCommand(cmd.Subcommands, rest[0])
		if sub == nil && !strings.HasPrefix(rest[0], "-") && rest[0] != "help" && rest[0] != "h" {
			return unknownSubcommand(cmd, rest[0])
		}
		if sub != nil {
			cmd, rest, path = sub, rest[1:], path+" "+sub.Name
		}
	}
	return checkFlags(path, cmd, rest)
}

// subcommandKinds says what the subcommands of a command are, for the error
// that names one it does not have; "command" when it is not listed.
var subcommandKinds = map[string]string{"export": "format"}

// unknownSubcommand is the error for name, which is not a subcommand of cmd:
// with the nearest one, as an unknown command gets.
func unknownSubcommand(cmd *cli.Command, name string) error {
	kind, ok := subcommandKinds[cmd.Name]
	if !ok {
		kind = "command"
	}
	return &unknownCommandError{kind: kind, name: name, suggest: suggestCommand(cmd.Subcommands, name), parent: "pitool " + cmd.Name}
}

// checkAppFlag refuses a flag before the command that pitool does not have.
func checkAppFlag(arg string) error {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if arg == "-" || arg == "--" || contains(appFlags, name) {
		return nil
	}
	unknown := &unknownFlagError{flag: arg, command: "pitool"}
	if s := suggestName(appFlags, name); s != "" {
		unknown.suggest = dashed(s)
	}
	return unknown
}

// checkFlags checks the flags among args of cmd (named path, "pitool ls").
func checkFlags(path string, cmd *cli.Command, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "help" || name == "h" {
			continue
		}
		f := lookupFlag(cmd.Flags, name)
		if f == nil {
			return &unknownFlagError{flag: dashed(name), suggest: suggestFlag(cmd.Flags, name), command: path}
		}
		if !inline {
			if !takesValue(cmd, a) {
				continue
			}
			if i+1 >= len(args) {
				return &flagError{flag: dashed(name), err: errors.New("needs a value")}
			}
			i++
			value = args[i]
		}
		if err := checkValue(f, value); err != nil {
			return &flagError{flag: dashed(name), err: err}
		}
	}
	return nil
}

// lookupFlag returns the flag among flags that has name, or nil.
func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// dashed writes a flag's name as the user types it: --limit, -j.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// checker is a flag value that can tell a good value from a bad one without
// being set (flags.go's time and age values).
type checker interface{ check(string) error }

// checkValue says why value does not fit flag f, in words that say what does.
func checkValue(f cli.Flag, value string) error {
	switch f := f.(type) {
	case *cli.IntFlag, *cli.Int64Flag:
		if _, err := strconv.ParseInt(value, 0, 64); err != nil {
			return fmt.Errorf("%q is not a whole number", value)
		}
	case *cli.UintFlag, *cli.Uint64Flag:
		if _, err := strconv.ParseUint(value, 0, 64); err != nil {
			return fmt.Errorf("%q is not a whole number of 0 or more", value)
		}
	case *cli.Float64Flag:
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return fmt.Errorf("%q is not a number", value)
		}
	case *cli.DurationFlag:
		if _, err := time.ParseDuration(value); err != nil {
			return fmt.Errorf("%q is not a duration: 500ms, 30s, 10m, 2h", value)
		}
	case *cli.GenericFlag:
		if c, ok := f.Value.(checker); ok {
			return c.check(value)
		}
	}
	return nil
}

// minLikeness is how alike (Jaro-Winkler, 0 to 1) a name given must be to
// a command's or flag's name to be offered as "did you mean".
const minLikeness = 0.8

// suggestName returns the name among names most like given, or "" when
// none is like it.
func suggestName(names []string, given string) string {
	best, score := "", minLikeness
	for _, n := range names {
		if s := smetrics.JaroWinkler(n, given, 0.7, 4); s >= score {
			best, score = n, s
		}
	}
	return best
}

// suggestCommand returns the command name most like given, or "".
func suggestCommand(cmds []*cli.Command, given string) string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return suggestName(names, given)
}

// suggestFlag returns the flag, with its dashes, most like given, or "".
func suggestFlag(flags []cli.Flag, given string) string {
	var names []string
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		names = append(names, f.Names()...)
	}
	if s := suggestName(append(names, "help"), given); s != "" {
		return dashed(s)
	}
	return ""
}
