package main

import (
	"fmt"

	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

type contextOptions struct {
	leaf string
	view string
}

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

The leaf defaults to the last entry of the file, where Pi resumes.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "leaf", Usage: "entry `ID` to build the context at"},
			&cli.StringFlag{Name: "view", Value: "context", Usage: "context, llm or provider"},
		},
		Action: func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return runContext(e, contextOptions{leaf: c.String("leaf"), view: c.String("view")}, file)
		},
	}
}

func runContext(e *env, opts contextOptions, file string) error {
	if opts.view != "context" && opts.view != "llm" && opts.view != "provider" {
		return usagef("--view must be context, llm or provider, not %q", opts.view)
	}
	proj, err := projectFile(e, file, opts.leaf)
	if err != nil {
		return err
	}
	var out []byte
	switch opts.view {
	case "context":
		out = proj.Context.AppendJSON(nil)
	case "llm":
		out = jsonl.AppendObjects(nil, jsonl.ConvertToLlm(proj.Messages))
	case "provider":
		model := jsonl.LastAssistantModel(proj.Messages)
		out = jsonl.AppendObjects(nil, jsonl.TransformMessages(jsonl.ConvertToLlm(proj.Messages), model))
	}
	return writeJSONLine(e, out)
}

// projectFile indexes a file and projects the path to a leaf ("" = active leaf).
func projectFile(e *env, file, leaf string) (*jsonl.Projection, error) {
	ix, closeFn, err := jsonl.IndexFile(file, e.stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	n, err := ix.ResolveLeaf(leaf)
	if err != nil {
		return nil, err
	}
	return ix.ProjectLeaf(n)
}

func oneFile(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes exactly one FILE (or - for stdin), got %d", c.Command.Name, c.NArg())
	}
	return c.Args().First(), nil
}

func writeJSONLine(e *env, out []byte) error {
	out = append(jsonl.ToValidUTF8(out), '\n')
	if _, err := e.stdout.Write(out); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}
