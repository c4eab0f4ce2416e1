package main

import (
	"time"

	"github.com/urfave/cli/v2"
)

// nightlyOptions are nightly's flags: compact's, and what to archive, where
// the report goes, and whether to write at all.
type nightlyOptions struct {
	batchOptions
	archiveAfter time.Duration // 0: never archive
	report       string        // "-" for stdout
	dryRun       bool
	yes          bool
}

func (o *nightlyOptions) flags() []cli.Flag {
	return append(o.batchOptions.flags(),
		ageFlag("archive-after", "archive sessions idle longer than `AGE` (e.g. 30d, 12h) as .jsonl.zst", 0, &o.archiveAfter),
		&cli.StringFlag{Name: "report", Value: "-", Usage: "write the JSON report to `FILE`", Destination: &o.report},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "report what would be done per file; write nothing but the report", Destination: &o.dryRun},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "work on Pi's sessions folder when run from a terminal with no DIR", Destination: &o.yes},
	)
}
