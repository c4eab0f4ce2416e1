package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/internal/termtext"
	"github.com/pitool/pitool/jsonl"
	"github.com/urfave/cli/v2"
)

// newSessionOptions says where a clone or fork goes.
type newSessionOptions struct {
	out    string // -o: a file, or - for stdout
	dir    string // --dir: a folder, the file named as Pi names it
	json   bool
	force  bool             // -o may replace another Pi session (never the input)
	target *safefile.Target // -o's location, opened before any work (nil: stdout, --dir or Pi's folder)
}

func (o *newSessionOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `OUT` (- for stdout) instead of Pi's sessions folder", Destination: &o.out},
		&cli.StringFlag{Name: "dir", Usage: "write into `DIR`, with Pi's file name <timestamp>_<id>.jsonl", Destination: &o.dir},
		&cli.BoolFlag{Name: "json", Usage: "print what was written as one JSON object", Destination: &o.json},
		&cli.BoolFlag{Name: "force", Usage: "let -o replace another Pi session (never FILE itself)", Destination: &o.force},
	}
}

func (o *newSessionOptions) validate() error {
	if o.out != "" && o.dir != "" {
		return usagef("give -o or --dir, not both")
	}
	return nil
}

// open opens -o's location before any work: a missing folder, an input or
// another Pi session there is refused at once (see outputRule; a copy an
// earlier run made from file is replaced). close releases it.
func (o *newSessionOptions) open(file string) (err error) {
	o.target, err = openOutput(o.out, outputRule{inputs: []string{file}, force: o.force})
	return err
}

// close releases -o's location.
func (o newSessionOptions) close() {
	if o.target != nil {
		o.target.Close()
	}
}

// cloneOptions are clone's flags.
type cloneOptions struct {
	newSessionOptions
	leaf string // --leaf: the branch's last entry, "" for the active leaf
}

func (o *cloneOptions) flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "leaf", Usage: "entry `ID` whose branch to copy (default: the active leaf)", Destination: &o.leaf},
	}, o.newSessionOptions.flags()...)
}

func cloneCommand(e *env) *cli.Command {
	opts := &cloneOptions{}
	return &cli.Command{
		Name:      "clone",
		Usage:     "copy one branch of a session into a new session file, as Pi's /clone does",
		ArgsUsage: "FILE",
		Description: `Writes a new session holding the path from the root to a leaf (the active
leaf by default): a new UUIDv7 header whose parentSession is FILE, the path
without label entries, and the labels still set on it recreated at the end,
exactly as Pi's createBranchedSession does. FILE is never modified.

By default the file goes where Pi looks for the session's cwd, so 'pi -r'
lists it: $PI_CODING_AGENT_DIR (or ~/.pi/agent) /sessions/--<cwd>--/
<timestamp>_<id>.jsonl. The path written is printed on stdout.`,
		Flags: opts.flags(),
		Action: withOptions(opts, func(c *cli.Context) error {
			file, err := oneFile(c)
			if err != nil {
				return err
			}
			if err := opts.open(file); err != nil {
				return err
			}
			defer opts.close()
			return runClone(e, opts.newSessionOptions, file, opts.leaf)
		}),
	}
}

func runClone(e *env, opts newSessionOptions, file, leafID string) error {
	return withLeaf(e, file, leafID, func(ix *jsonl.Index, leaf int) error {
		if leaf == jsonl.None {
			return fmt.Errorf("%s: the session has no entries to clone", file)
		}
		if leafID == "" {
			if err := exporter.CheckActiveLeaf(ix); err != nil {
				return err
			}
		}
		cwd, err := exporter.SourceCwd(ix)
		if err != nil {
			return err
		}
		return writeNewSession(e, opts, file, cwd, func(w io.Writer, h exporter.NewHeader) (exporter.Result, error) {
			return exporter.Clone(w, ix, leaf, h)
		})
	})
}

// compressedAs runs write on w, compressed as the output's name asks
// (jsonl.CompressionForName): a new session named x.jsonl.gz is gzip.
func compressedAs(name string, w io.Writer, write func(io.Writer) error) error {
	comp := jsonl.CompressionForName(name)
	if comp == jsonl.Plain {
		return write(w)
	}
	cw, err := jsonl.NewWriter(w, comp)
	if err != nil {
		return err
	}
	if err := write(cw); err != nil {
		return err
	}
	return cw.Close()
}

// writeNewSession makes a fresh header for cwd, writes the session where opts
// say, and reports the path (or, with --json, a summary) on stdout.
func writeNewSession(e *env, opts newSessionOptions, src, cwd string,
	write func(io.Writer, exporter.NewHeader) (exporter.Result, error)) error {
	parent := ""
	if src != jsonl.StdinName {
		abs, err := filepath.Abs(src)
		if err != nil {
			return err
		}
		parent = abs
	}
	h := exporter.FreshHeader(cwd, parent)
	dest, err := destination(opts, h)
	if err != nil {
		return err
	}
	var res exporter.Result
	err = writeNew(e, opts, dest, src, func(w io.Writer) error {
		return compressedAs(dest, w, func(w io.Writer) error {
			res, err = write(w, h)
			return err
		})
	})
	if err != nil || dest == "-" {
		return err
	}
	return reportNewSession(e, opts, dest, h, res)
}

// writeNew writes to -o's target opened before the work, or to dest (Pi's
// name, new in its folder).
func writeNew(e *env, opts newSessionOptions, dest, src string, write func(io.Writer) error) error {
	if opts.out != "" {
		return writeTo(e, opts.target, write)
	}
	return writeOutput(e, dest, []string{src}, write)
}

// destination is -o as given, or Pi's file name inside --dir or inside Pi's
// sessions folder for the cwd (created when missing).
func destination(opts newSessionOptions, h exporter.NewHeader) (string, error) {
	if opts.out != "" {
		return opts.out, nil
	}
	dir := opts.dir
	if dir == "" {
		sessions, err := sessionfiles.DefaultSessionsDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(sessions, sessionfiles.CwdFolderName(h.Cwd))
	}
	if err := safefile.MkdirAll(dir); err != nil {
		return "", fmt.Errorf("create session folder: %w", err)
	}
	return filepath.Join(dir, sessionfiles.FileName(h.Timestamp(), h.ID)), nil
}

func reportNewSession(e *env, opts newSessionOptions, path string, h exporter.NewHeader, res exporter.Result) error {
	if !opts.json {
		_, err := fmt.Fprintln(e.stdout, termtext.Visible(path))
		return err
	}
	o := jsonl.ObjectOf("path", jsonl.QuoteString(path), "id", jsonl.QuoteString(h.ID),
		"cwd", jsonl.QuoteString(h.Cwd), "parentSession", jsonl.QuoteString(h.ParentSession),
		"entries", jsonl.AppendInt(nil, int64(res.Entries)), "labels", jsonl.AppendInt(nil, int64(res.Labels)))
	return writeJSONLine(e, o.AppendJSON(nil))
}
