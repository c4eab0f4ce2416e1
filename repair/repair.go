package repair

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// IdleTime is how long a file must have been left alone before repair
// touches it without Force: a file changed more recently may belong to a
// live Pi session (the guard every in-place command shares).
const IdleTime = safefile.IdleTime

// QuarantineSuffix is appended to the output's name for the quarantine file.
const QuarantineSuffix = ".quarantine"

// MaxFixesPerCode caps the fixes and remaining findings a Result lists per
// code (the rest are counted in Result.Unlisted), so a file of a million
// garbage lines gives a short result and a bounded one.
const MaxFixesPerCode = 1000

// Options controls RepairFile.
type Options struct {
	Output         string    // output file; "" or "-" writes to Stdout
	Stdout         io.Writer // where "-" output goes (os.Stdout when nil)
	InPlace        bool      // replace the input atomically, keeping FILE.bak
	DryRun         bool      // decide the fixes, write nothing
	Force          bool      // repair a file modified within IdleTime
	CloseToolCalls bool      // answer unanswered tool calls with error results
	Quarantine     string    // quarantine file; default OUTPUT.quarantine (none for stdout: the input keeps the bytes)
	// OutputCheck, when set, is given the file an output file would replace
	// (safefile.Options.Check), which it may refuse.
	OutputCheck func(f *os.File, info os.FileInfo) error
}

// Result is what a repair did (or, with DryRun, would do).
type Result struct {
	File            string         `json:"file"`
	Output          string         `json:"output"`               // "-" for stdout, "" for a dry run
	Quarantine      string         `json:"quarantine,omitempty"` // the quarantine file, when anything went there ("" when the output is stdout and the input file keeps those bytes)
	Fixes           []Fix          `json:"fixes"`
	Changed         bool           `json:"changed"`            // the output differs from the input
	BytesIn         int64          `json:"bytesIn"`            // decompressed input size
	BytesCopied     int64          `json:"bytesCopied"`        // bytes copied as they were, without decoding
	QuarantineBytes int64          `json:"quarantineBytes"`    // bytes sent to the quarantine
	Remaining       []Finding      `json:"remaining"`          // findings repair does not fix (see Fixable)
	Unlisted        map[string]int `json:"unlisted,omitempty"` // fixes and findings left out of Fixes and Remaining per code, beyond MaxFixesPerCode
	Backup          string         `json:"backup,omitempty"`   // with InPlace: where the original is kept
}

// RepairFile repairs one session file ("-" reads stdin). Untouched lines are
// copied byte for byte, so the repair of a valid file is the file itself; with
// InPlace a file that needs no change is not rewritten at all. A file that is
// not a Pi session gives a *jsonl.NotSessionError and nothing is written.
func RepairFile(ctx context.Context, path string, stdin io.Reader, opts Options) (*Result, error) {
	if err := checkOptions(path, &opts); err != nil {
		return nil, err
	}
	var edit *safefile.Edit
	if path != jsonl.StdinName {
		if err := jsonl.CheckSessionFile(path); err != nil {
			return nil, err // the real reason first, before the live-session guard
		}
		e, unlock, err := guard(path, opts)
		if err != nil {
			return nil, err
		}
		defer unlock()
		edit = e
	}
	src, err := openSource(path, stdin, edit)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := src.CheckSession(); err != nil {
		return nil, err // never rewrite what is not a session, forced or not
	}
	pl, err := planSource(ctx, src, path, opts)
	if err != nil {
		return nil, err
	}
	return apply(ctx, pl, src, path, edit, opts)
}

// Repair repairs the session in src (size bytes, plain) into out, sending
// what cannot be saved to quarantine (which may be nil when the caller knows
// there is none: Repair then fails instead). Nothing is locked, checked or
// written atomically: that is RepairFile's job. Options.Output, InPlace and
// Force are ignored; with DryRun nothing is written.
func Repair(ctx context.Context, src io.ReaderAt, size int64, name string, out, quarantine io.Writer, opts Options) (*Result, error) {
	_, a, err := validate(ctx, io.NewSectionReader(src, 0, size), src, name, size, ValidateOptions{MaxPerCode: MaxFixesPerCode, forRepair: true})
	if err != nil {
		return nil, err
	}
	pl, err := makePlan(a, src, name, opts)
	if err != nil {
		return nil, err
	}
	res := newResult(pl, name, opts)
	if opts.DryRun {
		return res, nil
	}
	if pl.quarant && quarantine == nil {
		return nil, errors.New("some input lines cannot be saved and need a quarantine")
	}
	w, err := jsonl.NewWriter(out, jsonl.Plain)
	if err != nil {
		return nil, err
	}
	wr, err := pl.write(ctx, w, quarantine, 0, size)
	if err != nil {
		return nil, err
	}
	res.BytesCopied, res.QuarantineBytes = wr.copied, wr.qBytes
	return res, w.Close()
}

func newResult(pl *plan, name string, opts Options) *Result {
	res := &Result{File: name, Fixes: pl.fixes, Changed: pl.changed(), BytesIn: pl.a.m.bytes, Remaining: remaining(pl.a.report, opts), Unlisted: pl.a.report.Suppressed}
	if res.Fixes == nil {
		res.Fixes = []Fix{}
	}
	return res
}

func checkOptions(path string, opts *Options) error {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	switch {
	case opts.InPlace && path == jsonl.StdinName:
		return errors.New("--in-place needs a file, not stdin")
	case opts.InPlace && opts.Output != "" && opts.Output != "-":
		return errors.New("--in-place and an output file exclude each other")
	case !opts.InPlace && opts.Output != "" && opts.Output != "-" && safefile.SameFile(path, opts.Output):
		return fmt.Errorf("output %s is the input file; use --in-place to replace it (a backup is kept)", opts.Output)
	}
	return nil
}

// guard refuses a recently modified file (unless Force) and takes the
// file's lock while it is read: with InPlace through an in-place edit (see
// safefile.Begin), which also stamps the file for Commit's recheck.
func guard(path string, opts Options) (*safefile.Edit, func() error, error) {
	if !opts.DryRun {
		if err := safefile.GuardLive(path, opts.Force); err != nil {
			return nil, nil, err
		}
	}
	switch {
	case opts.DryRun:
		return nil, func() error { return nil }, nil
	case opts.InPlace:
		e, err := safefile.Begin(path)
		if err != nil {
			return nil, nil, err
		}
		return e, e.Close, nil
	}
	unlock, err := safefile.Lock(path)
	return nil, unlock, err
}

// openSource opens what is repaired: in place, the bytes the edit stamped
// (the lines appended after them are carried by its Commit).
func openSource(path string, stdin io.Reader, edit *safefile.Edit) (*jsonl.Source, error) {
	if edit != nil {
		return jsonl.OpenSection(path, edit.Snapshot())
	}
	return jsonl.Open(path, stdin)
}

func planSource(ctx context.Context, src *jsonl.Source, path string, opts Options) (*plan, error) {
	ra, err := src.ReaderAt()
	if err != nil {
		return nil, err
	}
	_, a, err := validate(ctx, src.Reader(), ra, path, sizeHint(src), ValidateOptions{MaxPerCode: MaxFixesPerCode, truncated: src.Truncated, forRepair: true})
	if err != nil {
		return nil, err
	}
	return makePlan(a, ra, path, opts)
}

func apply(ctx context.Context, pl *plan, src *jsonl.Source, path string, edit *safefile.Edit, opts Options) (*Result, error) {
	res := newResult(pl, path, opts)
	if opts.DryRun || (opts.InPlace && !res.Changed) {
		return res, nil
	}
	res.Output = outputName(path, opts)
	if pl.quarant {
		q, err := quarantineName(path, res.Output, opts)
		if err != nil {
			return nil, err
		}
		res.Quarantine = q
	}
	write := func(w io.Writer, q io.Writer) (int64, error) {
		if q == nil && pl.quarant {
			q = io.Discard // output to stdout: the input, left as it is, keeps those bytes
		}
		basis := int64(-1) // compressed output cannot take appended lines
		var from int64
		comp := outputCompression(src, res.Output, opts)
		if src.Compression == jsonl.Plain && comp == jsonl.Plain {
			var err error
			if from, err = pl.copyPrefix(w); err != nil {
				return basis, err
			}
			basis = pl.a.m.bytes
		}
		out, err := jsonl.NewWriter(w, comp)
		if err != nil {
			return basis, err
		}
		wr, err := pl.write(ctx, out, q, from, pl.a.m.bytes)
		if err != nil {
			return basis, err
		}
		res.BytesCopied, res.QuarantineBytes = wr.copied, wr.qBytes
		return basis, out.Close()
	}
	return res, commit(res, edit, opts, write)
}

// commit writes the quarantine, then the output, each through safefile; the
// quarantine is only kept when the output was written.
func commit(res *Result, edit *safefile.Edit, opts Options, write func(w, q io.Writer) (int64, error)) error {
	output := func(q io.Writer) error {
		switch {
		case opts.InPlace:
			r, err := edit.Commit(safefile.CommitOptions{Backup: true}, func(w io.Writer) (int64, error) { return write(w, q) })
			res.Backup = r.Backup
			return err
		case res.Output == "-":
			_, err := write(opts.Stdout, q)
			return err
		}
		return safefile.WriteFile(res.Output, safefile.Options{Check: opts.OutputCheck}, func(w io.Writer) error { _, err := write(w, q); return err })
	}
	if res.Quarantine == "" {
		return output(nil)
	}
	return safefile.WriteFile(res.Quarantine, safefile.Options{NoClobber: true}, output)
}

// outputCompression is the output's format: in place, the input's own
// (whatever its name says); otherwise the one the output's name asks for.
func outputCompression(src *jsonl.Source, output string, opts Options) jsonl.Compression {
	if opts.InPlace {
		return src.Compression
	}
	return jsonl.CompressionForName(output)
}

func outputName(path string, opts Options) string {
	switch {
	case opts.InPlace:
		return path
	case opts.Output == "":
		return "-"
	}
	return opts.Output
}

// quarantineName picks a quarantine file beside the output that does not
// exist yet, so an earlier quarantine is never overwritten. A file repaired
// to stdout gets none ("", no file is made beside the input): the input,
// which is not changed, still holds every byte the output leaves out.
func quarantineName(path, output string, opts Options) (string, error) {
	base := opts.Quarantine
	if base == "" {
		switch {
		case output != "-":
			base = output + QuarantineSuffix
		case path != jsonl.StdinName:
			return "", nil
		default:
			return "", errors.New("some input lines cannot be saved and need a quarantine file: give --quarantine FILE (or -o FILE)")
		}
	}
	name := base
	for k := 1; k < 1000; k++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
		name = fmt.Sprintf("%s.%d", base, k)
	}
	return "", fmt.Errorf("%s: too many quarantine files", base)
}

// remaining lists the findings repair leaves as they are.
func remaining(rep *Report, opts Options) []Finding {
	out := []Finding{}
	for _, f := range rep.Findings {
		if !Fixable(f.Code, opts.CloseToolCalls) && f.Severity != SevInfo {
			out = append(out, f)
		}
	}
	return out
}
