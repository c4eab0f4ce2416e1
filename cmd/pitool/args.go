package main

import (
	"flag"
	"io"

	"github.com/urfave/cli/v2"
)

// fileArgs is a command line of one FILE whose flags may come before or after
// it: urfave/cli stops at the first argument, but the documented form is
// 'pitool export html FILE -o OUT'.
type fileArgs struct {
	c    *cli.Context
	tail *flag.FlagSet // flags given after FILE
	file string
}

// parseFileArgs reads exactly one FILE (or -) and any flags after it.
func parseFileArgs(c *cli.Context) (*fileArgs, error) {
	if c.NArg() == 0 {
		return nil, usagef("%s takes exactly one FILE (or - for stdin), got 0", c.Command.Name)
	}
	a := &fileArgs{c: c, file: c.Args().First(), tail: flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)}
	a.tail.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(a.tail); err != nil {
			return nil, err
		}
	}
	if err := a.tail.Parse(c.Args().Tail()); err != nil {
		return nil, usagef("%v", err)
	}
	if a.tail.NArg() > 0 {
		return nil, usagef("%s takes exactly one FILE (or - for stdin), got %d", c.Command.Name, 1+a.tail.NArg())
	}
	return a, nil
}

// given returns the flag set after FILE under name or one of its aliases.
func (a *fileArgs) given(name string) *flag.Flag {
	var found *flag.Flag
	a.tail.Visit(func(f *flag.Flag) {
		for _, n := range a.names(name) {
			if f.Name == n {
				found = f
			}
		}
	})
	return found
}

// names returns a flag's name and aliases.
func (a *fileArgs) names(name string) []string {
	for _, f := range a.c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f.Names()
			}
		}
	}
	return []string{name}
}

// String returns a string flag, given before or after FILE.
func (a *fileArgs) String(name string) string {
	if f := a.given(name); f != nil {
		return f.Value.String()
	}
	return a.c.String(name)
}

// Bool returns a boolean flag, given before or after FILE.
func (a *fileArgs) Bool(name string) bool {
	if f := a.given(name); f != nil {
		return f.Value.String() == "true"
	}
	return a.c.Bool(name)
}
