package main

import (
	json "github.com/goccy/go-json"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

func tokensCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "tokens",
		Usage:     "estimate tokens per context message and for the whole context, as Pi does",
		ArgsUsage: "FILE",
		Description: `Prints {perMessage, context}: Pi's estimateTokens for every message of the
context at the leaf (characters counted as UTF-16 units, divided by 4, rounded
up) and estimateContextTokens (the last trusted assistant usage plus the
estimates of the messages after it).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "leaf", Usage: "entry `ID` to estimate at"},
		},
		Action: func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			return runTokens(e, file, c.String("leaf"))
		},
	}
}

type tokensReport struct {
	PerMessage []int               `json:"perMessage"`
	Context    jsonl.ContextTokens `json:"context"`
}

func runTokens(e *env, file, leaf string) error {
	proj, err := projectFile(e, file, leaf)
	if err != nil {
		return err
	}
	r := tokensReport{PerMessage: make([]int, len(proj.Messages)), Context: jsonl.EstimateContextTokens(proj.Messages)}
	for i, m := range proj.Messages {
		r.PerMessage[i] = jsonl.EstimateTokens(m)
	}
	out, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeJSONLine(e, out)
}
