package main

import (
	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func tokensCommand(e *env) *cli.Command {
	opts := &tokensOptions{}
	return &cli.Command{
		Name:      "tokens",
		Usage:     "estimate tokens per context message and for the whole context, as Pi does",
		ArgsUsage: "FILE",
		Description: `Prints {perMessage, context}: Pi's estimateTokens for every message of the
context at the leaf (characters counted as UTF-16 units, divided by 4, rounded
up) and estimateContextTokens (the last trusted assistant usage plus the
estimates of the messages after it).

` + helpReadOneFile,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return withLeaf(e, file, opts.leaf, func(ix *jsonl.Index, leaf int) error {
				return runTokens(e, ix, leaf)
			})
		}),
	}
}

// tokensOptions are tokens' flags.
type tokensOptions struct {
	leaf string // --leaf, "" for the active leaf
}

func (o *tokensOptions) flags() []cli.Flag {
	return []cli.Flag{&cli.StringFlag{Name: "leaf", Usage: "entry `ID` to estimate at", Destination: &o.leaf}}
}

func (o *tokensOptions) validate() error { return nil }

type tokensReport struct {
	PerMessage []int               `json:"perMessage"`
	Context    jsonl.ContextTokens `json:"context"`
}

func runTokens(e *env, ix *jsonl.Index, leaf int) error {
	sel, err := ix.Select(leaf)
	if err != nil {
		return err
	}
	var est jsonl.TokenCounter
	if err := ix.Stream(sel, func(pe jsonl.ProjectedEntry) error { est.Add(pe.Messages...); return nil }); err != nil {
		return err
	}
	perMessage := est.PerMessage
	if perMessage == nil {
		perMessage = []int{} // an empty context: Pi prints [], not null
	}
	out, err := jsonout.Marshal(tokensReport{PerMessage: perMessage, Context: est.Context()})
	if err != nil {
		return err
	}
	return writeJSONLine(e, out)
}
