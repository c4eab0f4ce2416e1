package main

import (
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask pitool itself what may follow (urfave/cli's
// hidden --generate-bash-completion flag), so they never go out of date.
var (
	//go:embed completion/pitool.bash
	bashCompletion string
	//go:embed completion/pitool.zsh
	zshCompletion string
)

// completionFlag is the hidden flag that makes pitool print the words that
// may follow the command line before it, for the completion scripts.
const completionFlag = "--generate-bash-completion"

// shells are the shells pitool completion writes a script for.
var shells = []string{"bash", "zsh", "fish"}

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: `Load it in the current shell:
  bash:  source <(pitool completion bash)
  zsh:   source <(pitool completion zsh)      (after compinit)
  fish:  pitool completion fish | source
or install it for every session:
  bash:  pitool completion bash > /etc/bash_completion.d/pitool
  zsh:   pitool completion zsh > "${fpath[1]}/_pitool"
  fish:  pitool completion fish > ~/.config/fish/completions/pitool.fish`,
		BashComplete: func(*cli.Context) {
			for _, shell := range shells {
				fmt.Fprintln(e.stdout, shell)
			}
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion takes one shell: bash, zsh or fish")
			}
			script, err := completionScript(c.App, c.Args().First())
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, script)
			return err
		},
	}
}

// completionScript returns the completion script of shell for app.
func completionScript(app *cli.App, shell string) (string, error) {
	switch shell {
	case "bash":
		return bashCompletion, nil
	case "zsh":
		return zshCompletion, nil
	case "fish":
		script, err := app.ToFishCompletion()
		if err != nil {
			return "", fmt.Errorf("fish completion: %w", err)
		}
		return script + fishChoices(app.Name, app.Commands), nil
	}
	return "", usagef("completion: unknown shell %q: use bash, zsh or fish", shell)
}

// completeFlagValue prints, for a command line that ends in a flag taking
// one of a fixed set of words and the completion flag (`pitool stats --by
// <TAB>`), those words, and reports whether it did.
func completeFlagValue(app *cli.App, args []string, w io.Writer) bool {
	n := len(args)
	if n < 4 || args[n-1] != completionFlag {
		return false
	}
	cmd := findCommand(app.Commands, args[1])
	if cmd == nil {
		return false
	}
	if sub := findCommand(cmd.Subcommands, args[2]); sub != nil {
		cmd = sub
	}
	f := lookupFlag(cmd.Flags, strings.TrimLeft(args[n-2], "-"))
	choices := flagChoices(f)
	for _, c := range choices {
		fmt.Fprintln(w, c)
	}
	return choices != nil
}

// fishChoices completes, in fish, the values of the flags that take one of
// a fixed set of words (urfave's fish script completes only their names).
func fishChoices(prog string, cmds []*cli.Command) string {
	var b strings.Builder
	for _, c := range cmds {
		for _, f := range c.Flags {
			if choices := flagChoices(f); choices != nil {
				fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from %s' -f -l %s -r -a '%s'\n",
					prog, c.Name, f.Names()[0], strings.Join(choices, " "))
			}
		}
		b.WriteString(fishChoices(prog, c.Subcommands))
	}
	return b.String()
}
