package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/urfave/cli/v2"
)

// Exit codes, decided in one place (exitCode).
const (
	exitOK          = 0
	exitFindings    = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// env is what every command reads from and writes to.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	args           []string // the command line, for a child run as another user (privsep.go)
}

// helpRoot says what runs as whom when pitool runs as root (privsep.go).
const helpRoot = `RUN AS ROOT:
   pitool never works on another user's files as root: a command that writes
   files a user controls (a folder of theirs on the path) runs as that user,
   nightly runs one worker per user, and a command line that would write
   files of several users, or through a folder anyone may write, is refused.
   See pitool nightly --help and "Running as root" in the README.`

const helpExitCodes = `EXIT CODES:
   0    ok
   1    findings (validate found damage, redact --check found secrets)
   2    usage error or unreadable input
   130  interrupted`

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:                 "pitool",
		Usage:                "read, search, validate, repair, compact, redact and export Pi coding agent sessions",
		Version:              buildVersion(debug.ReadBuildInfo()),
		Description:          "Every command reads plain, .gz and .zst session files and takes - for stdin/stdout.\n\n" + helpRoot + "\n\n" + helpExitCodes,
		Reader:               e.stdin,
		Writer:               e.stdout,
		ErrWriter:            e.stderr,
		EnableBashCompletion: true,
		HideHelpCommand:      true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err.Error()}
		},
		Commands: commands(e),
	}
	for _, c := range app.Commands {
		if c.OnUsageError == nil {
			c.OnUsageError = app.OnUsageError
		}
		// complete a leaf command's arguments as file names, not as the
		// help subcommand urfave/cli gives it
		c.HideHelpCommand = len(c.Subcommands) == 0
	}
	return app
}

// commands lists every subcommand, each built in its own cmd_*.go file.
func commands(e *env) []*cli.Command {
	return []*cli.Command{
		contextCommand(e),
		tokensCommand(e),
		treeCommand(e),
		infoCommand(e),
		lsCommand(e),
		searchCommand(e),
		statsCommand(e),
		validateCommand(e),
		repairCommand(e),
		compactCommand(e),
		nightlyCommand(e),
		unarchiveCommand(e),
		redactCommand(e),
		exportCommand(e),
		showCommand(e),
		cloneCommand(e),
		forkCommand(e),
		completionCommand(e),
		manCommand(e),
		mcpCommand(e),
	}
}

// run executes pitool with args and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, args: args}
	safefile.ReportStale = func(p string) { e.infof("removed stale temporary file %s", p) }
	if code, handled := privsepRun(ctx, e, args); handled {
		return code
	}
	app := newApp(e)
	if completeFlagValue(app, args, e.stdout) {
		return exitOK
	}
	args = helpArgs(args)
	err := checkArgs(app, args)
	if err == nil {
		err = app.RunContext(ctx, flagsFirst(app, args))
	}
	code := exitCode(ctx, err)
	switch {
	case code == exitInterrupted:
		e.errorf("interrupted")
	case err != nil && code != exitFindings && !errors.Is(err, errReported):
		e.printError(err)
		e.candidateHints(err)
	}
	if hint := hintFor(app, args, err); hint != "" {
		e.hintf("%s", hint)
	}
	return code
}

// hintFor returns the hint to print after err: its own, or for a usage
// error the help of the command used.
func hintFor(app *cli.App, args []string, err error) string {
	var h hinter
	if errors.As(err, &h) {
		return h.Hint()
	}
	var ue *usageError
	var fe *flagError
	if !errors.As(err, &ue) && !errors.As(err, &fe) {
		return ""
	}
	if len(args) > 1 {
		if cmd := findCommand(app.Commands, args[1]); cmd != nil {
			return fmt.Sprintf("run 'pitool %s --help'", cmd.Name)
		}
	}
	return "run 'pitool --help'"
}

// exitCode maps an error to pitool's exit codes: an interrupted run is 130,
// an error that carries its code (exitCoder) has it, any other is 2.
func exitCode(ctx context.Context, err error) int {
	var ec exitCoder
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return exitUsage
}
