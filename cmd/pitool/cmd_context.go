package main

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func contextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "context",
		Usage:     "print the messages the model sees at a leaf, as Pi builds them",
		ArgsUsage: "FILE",
		Description: `Prints JSON of the same shape as Pi's own code gives:
   context   buildSessionContext: {messages, thinkingLevel, model}
   llm       convertToLlm of those messages (a JSON array)
   provider  what a provider receives: errored/aborted turns dropped and
             unanswered tool calls closed with "No result provided"
             (synthetic results carry timestamp 0, so output is reproducible)

The leaf defaults to the last entry of the file, where Pi resumes. The file is
indexed in one pass and only the entries of the context are decoded, one at a
time, so memory stays small whatever the session's size.

` + helpReadOneFile,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "leaf", Usage: "entry `ID` to build the context at"},
			&cli.StringFlag{Name: "view", Value: "context", Usage: "`VIEW`: context, llm or provider"},
		},
		Action: func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			view, err := jsonl.ParseView(c.String("view"))
			if err != nil {
				return usagef("--view: %v", err)
			}
			return withLeaf(e, file, c.String("leaf"), func(ix *jsonl.Index, leaf int) error {
				return ix.WriteView(e.stdout, leaf, view)
			})
		},
	}
}

// withLeaf indexes a file, resolves a leaf id ("" = the active leaf) and calls fn.
func withLeaf(e *env, file, leafID string, fn func(ix *jsonl.Index, leaf int) error) error {
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return err
	}
	defer closeFn()
	noteDamage(e, file, ix)
	leaf, err := ix.ResolveLeaf(leafID)
	if err != nil {
		return err
	}
	return fn(ix, leaf)
}

// noteDamage tells the user, on stderr, when a file has lines Pi's loader
// skips or no header, since the output then silently lacks them, as in Pi.
func noteDamage(e *env, file string, ix *jsonl.Index) {
	var problems []string
	if n := ix.SkippedCount; n > 0 {
		problems = append(problems, fmt.Sprintf("%d line(s) are not JSON objects and were skipped, as Pi skips them", n))
	}
	if !ix.HasHeader {
		problems = append(problems, "it has no session header (Pi refuses to open it)")
	}
	if ix.Truncated {
		problems = append(problems, "the compressed file is truncated (a crash while it was written?); only the lines it yields were read")
	}
	if len(problems) > 0 {
		e.warningf("%s: %s; run 'pitool validate %s'", file, strings.Join(problems, "; "), file)
	}
}

func oneFile(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes exactly one FILE (or - for stdin), got %d", c.Command.Name, c.NArg())
	}
	return sessionArg(c, c.Args().First())
}

func writeJSONLine(e *env, out []byte) error {
	out = append(jsonl.ToValidUTF8(out), '\n')
	_, err := e.stdout.Write(out)
	return err
}
