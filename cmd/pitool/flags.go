package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pitool/pitool/internal/when"
	"github.com/urfave/cli/v2"
)

// Flags are bound to options, as restic's opts.AddFlags binds them: each
// command has an xxxOptions struct, its flags() method returns the command's
// flags with every value bound to a field (Destination, or a value type below
// that points at the field), and its validate() method checks what a flag's
// type cannot (a value from a fixed set, flags that exclude each other). The
// command's Action is withOptions(opts, action): validate runs first, in one
// place, and the action reads the fields, never c.String("name").
//
//	type fooOptions struct{ leaf string }
//	func (o *fooOptions) flags() []cli.Flag {
//		return []cli.Flag{&cli.StringFlag{Name: "leaf", Destination: &o.leaf}}
//	}
//	func (o *fooOptions) validate() error { return nil }
//
//	opts := &fooOptions{}
//	return &cli.Command{Flags: opts.flags(), Action: withOptions(opts, func(c *cli.Context) error {
//		return runFoo(e, opts, c.Args().Slice())
//	})}
//
// A bad value of a typed flag (a number, an age, a time) is refused before
// any action with the flag's name, the value and what is accepted
// (checkArgs); choices([]string) gives a flag's fixed values to completion.

// options is what every command's options struct implements.
type options interface {
	validate() error
}

// withOptions returns an action that validates opts, then runs action.
func withOptions(opts options, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := opts.validate(); err != nil {
			return err
		}
		return action(c)
	}
}

// timeValue is the value of a --since or --until flag: the time grammar of
// internal/when, bound to a field. A zero time is an open end.
type timeValue struct {
	dst  *time.Time
	text string
}

// Set reads s as when.ParseTime does, relative to now.
func (v *timeValue) Set(s string) error {
	t, err := when.ParseTime(s, time.Now())
	if err != nil {
		return err
	}
	*v.dst, v.text = t, s
	return nil
}

func (v *timeValue) String() string { return v.text }

// check reports whether s is a time, without setting anything (checkArgs).
func (v *timeValue) check(s string) error { _, err := when.ParseTime(s, time.Now()); return err }

// timeFlag is a --since/--until style flag bound to dst.
func timeFlag(name, usage string, dst *time.Time) *cli.GenericFlag {
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &timeValue{dst: dst}}
}

// ageValue is the value of an age flag (--archive-after, --min-idle): the
// age grammar of internal/when, bound to a field.
type ageValue struct {
	dst  *time.Duration
	text string
}

// Set reads s as when.ParseAge does.
func (v *ageValue) Set(s string) error {
	d, err := when.ParseAge(s)
	if err != nil {
		return err
	}
	*v.dst, v.text = d, s
	return nil
}

func (v *ageValue) String() string { return v.text }

// check reports whether s is an age, without setting anything (checkArgs).
func (v *ageValue) check(s string) error { _, err := when.ParseAge(s); return err }

// ageFlag is an age flag bound to dst holding def until the flag is given;
// a zero def shows no default.
func ageFlag(name, usage string, def time.Duration, dst *time.Duration) *cli.GenericFlag {
	*dst = def
	v := &ageValue{dst: dst}
	if def != 0 {
		v.text = when.FormatAge(def)
	}
	return &cli.GenericFlag{Name: name, Usage: usage, Value: v}
}

// choiceValue is the value of a flag that takes one word of a fixed set
// (--view, --by, --color), bound to a field: any other word is refused with
// the set (checkArgs), and shell completion offers the set (cmd_completion.go).
type choiceValue struct {
	dst     *string
	choices []string
}

// Set takes s if it is one of the choices.
func (v *choiceValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	*v.dst = s
	return nil
}

func (v *choiceValue) String() string { return *v.dst }

// check reports whether s is one of the choices.
func (v *choiceValue) check(s string) error {
	if !contains(v.choices, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(v.choices, ", "))
	}
	return nil
}

// choiceFlag is a flag taking one of choices, def until given, bound to dst
// (nil: a string of its own, read with c.String).
func choiceFlag(name, usage string, choices []string, def string, dst *string) *cli.GenericFlag {
	if dst == nil {
		dst = new(string)
	}
	*dst = def
	return &cli.GenericFlag{Name: name, Usage: usage, Value: &choiceValue{dst: dst, choices: choices}}
}

// flagChoices returns the words flag f takes, or nil if any word will do.
func flagChoices(f cli.Flag) []string {
	if g, ok := f.(*cli.GenericFlag); ok {
		if v, ok := g.Value.(*choiceValue); ok {
			return v.choices
		}
	}
	return nil
}
