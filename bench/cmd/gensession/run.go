package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/safefile"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// defaultSize is the session size when neither -size nor -entries is given.
const defaultSize = "10MB"

const usageText = `usage: gensession [flags] -o FILE

Writes a synthetic Pi v3 session file: a header, a system message, then turns of
user prompts, assistant messages with thinking and tool calls (read, bash, grep,
edit, write), their results, and now and then model and thinking changes, labels,
session names, custom entries, usage, context edits and shell commands. The same
flags and seed always give the same bytes.

Examples:
  gensession -size 100MB -seed 1 -o big.jsonl
  gensession -size 5MB -branch-every 40 -compaction-every 200 -unicode -o tree.jsonl
  gensession -entries 500 -tool-heavy -o - | pitool context /dev/stdin

Flags:
`

const exitText = `
Sizes take a KB, MB or GB suffix (powers of 1024) or none for bytes. The file is
written to a temporary name and renamed when complete.

Exit status: 0 written, 1 write failed, 2 usage error, 130 interrupted.
`

// options are the parsed command line.
type options struct {
	gen gen.Options
	out string
}

// run parses args, writes the session and reports on stderr; it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "gensession: error: %v\ngensession: hint: run gensession -help\n", err)
		return exitUsage
	}
	start := time.Now()
	st, err := write(ctx, opts, stdout)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "gensession: error: interrupted")
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(stderr, "gensession: error: %v\n", err)
		return exitFailed
	}
	fmt.Fprintf(stderr, "gensession: wrote %s: %d entries, %d bytes, %d leaves, %d compactions, %d tool calls in %s\n",
		opts.out, st.Entries, st.Bytes, st.Leaves, st.Compactions, st.ToolCalls, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// parseFlags turns args into options; -help prints the usage and returns flag.ErrHelp.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var size string
	fs := flag.NewFlagSet("gensession", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
		fmt.Fprint(stderr, exitText)
	}
	fs.StringVar(&size, "size", "", "stop at the first entry that brings the file to this size (default "+defaultSize+")")
	fs.IntVar(&o.gen.Entries, "entries", 0, "write exactly this many entries after the header, instead of -size")
	fs.Uint64Var(&o.gen.Seed, "seed", 1, "random seed")
	fs.IntVar(&o.gen.BranchEvery, "branch-every", 0, "branch off an older entry about every `N` entries (0: one linear path)")
	fs.IntVar(&o.gen.CompactionEvery, "compaction-every", 0, "append a compaction about every `N` entries (0: none)")
	fs.IntVar(&o.gen.ToolResultBytes, "tool-result-bytes", 0, "typical size of a tool output in `bytes` (default 1500)")
	fs.BoolVar(&o.gen.ToolHeavy, "tool-heavy", false, "make turns of many tool calls and little else")
	fs.BoolVar(&o.gen.Unicode, "unicode", false, "mix in accented, CJK, Hangul and emoji text")
	fs.StringVar(&o.gen.Cwd, "cwd", "", "working directory in the header (default /home/dev/project)")
	fs.StringVar((*string)(&o.gen.Shape), "shape", "", "write a hostile `SHAPE` of -entries entries instead of a conversation: "+shapeList())
	fs.IntVar(&o.gen.TextBytes, "text-bytes", 0, "with -shape, the length of each message's text in `bytes`")
	fs.StringVar(&o.out, "o", "", "output `FILE`, or - for stdout (required)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	return o, o.finish(fs, size)
}

// finish checks the combination of flags and resolves the size.
func (o *options) finish(fs *flag.FlagSet, size string) error {
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.out == "":
		return errors.New("missing -o FILE (use -o - for stdout)")
	case o.gen.Shape != "" && (size != "" || o.gen.Entries == 0):
		return errors.New("-shape takes -entries, not -size")
	case size != "" && o.gen.Entries > 0:
		return errors.New("-size and -entries exclude each other")
	case o.gen.Entries > 0:
		return nil
	case size == "":
		size = defaultSize
	}
	n, err := parseSize(size)
	if err != nil {
		return fmt.Errorf("-size: %w", err)
	}
	o.gen.TargetBytes = n
	return nil
}

// write generates the session into the output file, or to stdout for "-".
func write(ctx context.Context, o options, stdout io.Writer) (gen.Stats, error) {
	var st gen.Stats
	generate := func(w io.Writer) error {
		var err error
		st, err = gen.Write(ctxWriter{ctx: ctx, w: w}, o.gen)
		return err
	}
	if o.out == "-" {
		return st, generate(stdout)
	}
	if err := safefile.WriteFile(o.out, safefile.Options{}, generate); err != nil {
		return st, fmt.Errorf("write %s: %w", o.out, err)
	}
	return st, nil
}

// ctxWriter fails writes once its context is done, so that an interrupt stops generation.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

// Write passes p on unless the context is done.
func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// shapeList names the shapes -shape takes.
func shapeList() string {
	names := make([]string, len(gen.Shapes))
	for k, s := range gen.Shapes {
		names[k] = string(s)
	}
	return strings.Join(names, ", ")
}
