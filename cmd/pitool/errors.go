package main

import (
	"errors"
	"fmt"
)

// Errors carry their exit code, as gojq's do: an error with an ExitCode
// method decides the code itself (exitCode), one with a Hint method says
// what to run next. Any other error exits 2.

// exitCoder is an error that knows pitool's exit code for it.
type exitCoder interface{ ExitCode() int }

// hinter is an error that knows the hint to print after it.
type hinter interface{ Hint() string }

// findingsError means the command ran and found problems (exit 1).
type findingsError struct{ msg string }

func (e *findingsError) Error() string { return e.msg }

// ExitCode is 1: findings.
func (e *findingsError) ExitCode() int { return exitFindings }

// usageError means the command line was wrong (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// ExitCode is 2: a usage error.
func (e *usageError) ExitCode() int { return exitUsage }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// errReported is returned by a command that has already printed its error:
// it exits 2 and prints nothing more, so that one error stays one line.
var errReported = errors.New("error already reported")

// flagError is a bad value of a flag: "--limit: "abc" is not a whole
// number". Err says what was given and what is accepted.
type flagError struct {
	flag string // with its dashes: --limit, -j
	err  error
}

func (e *flagError) Error() string { return e.flag + ": " + e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

// ExitCode is 2: a usage error.
func (e *flagError) ExitCode() int { return exitUsage }

// unknownFlagError is a flag the command does not have.
type unknownFlagError struct {
	flag    string // as given, with its dashes
	suggest string // the nearest flag, "" for none
	command string // "pitool ls", "pitool"
}

func (e *unknownFlagError) Error() string {
	if e.suggest == "" {
		return "unknown flag " + e.flag
	}
	return fmt.Sprintf("unknown flag %s: did you mean %s?", e.flag, e.suggest)
}

// ExitCode is 2: a usage error.
func (e *unknownFlagError) ExitCode() int { return exitUsage }

// Hint names the help of the command used.
func (e *unknownFlagError) Hint() string { return fmt.Sprintf("run '%s --help'", e.command) }

// unknownCommandError is a command pitool does not have, or a subcommand
// (export's format) its command does not have.
type unknownCommandError struct {
	kind    string // what name should have been: "command", "format"
	name    string
	suggest string // the nearest command, "" for none
	parent  string // the command whose commands these are: "pitool", "pitool export"
}

func (e *unknownCommandError) Error() string {
	if e.suggest == "" {
		return fmt.Sprintf("unknown %s %q", e.kind, e.name)
	}
	return fmt.Sprintf("unknown %s %q: did you mean %q?", e.kind, e.name, e.suggest)
}

// ExitCode is 2: a usage error.
func (e *unknownCommandError) ExitCode() int { return exitUsage }

// Hint points at the list of commands.
func (e *unknownCommandError) Hint() string {
	return fmt.Sprintf("run '%s --help' for the list of %ss", e.parent, e.kind)
}
