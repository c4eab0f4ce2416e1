package repair

import (
	"context"
	"io"
	"sort"

	"github.com/pitool/pitool/jsonl"
)

// DefaultMaxPerCode is how many findings of one code a report keeps when
// ValidateOptions.MaxPerCode is zero; the rest are counted in Suppressed.
const DefaultMaxPerCode = 100

// ValidateOptions controls validation.
type ValidateOptions struct {
	// MaxPerCode caps the findings kept per code (0: DefaultMaxPerCode,
	// negative: no cap), so a file with a million bad lines gives a short report.
	MaxPerCode int

	// truncated, when set, says after the scan whether the compressed
	// stream ended early (jsonl.Source.Truncated).
	truncated func() bool
	// reread, when set, reads the input again for the request check when
	// the scan does not read objects back.
	reread io.ReaderAt
	// forRepair keeps the model and the structure for a repair plan; without
	// it they are dropped before the request check builds its own index, so
	// the two are never live at once.
	forRepair bool
}

// ValidateFile validates one session file ("-" reads stdin) in one streaming
// pass plus checks over its entry tree. The error is for input that cannot be
// read or is not a Pi session (a *jsonl.NotSessionError); damage is reported
// as findings.
func ValidateFile(ctx context.Context, path string, stdin io.Reader, opts ValidateOptions) (*Report, error) {
	src, err := jsonl.Open(path, stdin)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := src.CheckSession(); err != nil {
		return nil, err
	}
	// A plain file is read back by offset; a compressed one is spooled
	// already, and stdin is spooled here, so the request check reads them too.
	var ra io.ReaderAt
	if src.Compression == jsonl.Plain && path != jsonl.StdinName {
		ra, err = src.ReaderAt()
	} else {
		opts.reread, err = src.ReaderAt()
	}
	if err != nil {
		return nil, err
	}
	opts.truncated = src.Truncated
	rep, _, err := validate(ctx, src.Reader(), ra, path, sizeHint(src), opts)
	return rep, err
}

// sizeHint is the decompressed size a source probably has: its size on disk
// when plain, nothing otherwise.
func sizeHint(src *jsonl.Source) int64 {
	if src.Compression != jsonl.Plain {
		return 0
	}
	return src.Size
}

// Validate validates a decompressed session stream; name labels findings.
func Validate(ctx context.Context, r io.Reader, name string, opts ValidateOptions) (*Report, error) {
	opts.reread, _ = r.(io.ReaderAt)
	rep, _, err := validate(ctx, r, nil, name, 0, opts)
	return rep, err
}

// validate runs both passes; ra, when not nil, lets it read objects back
// instead of hashing every one.
func validate(ctx context.Context, r io.Reader, ra io.ReaderAt, name string, size int64, opts ValidateOptions) (*Report, *analysed, error) {
	rep := &Report{File: name, Findings: []Finding{}}
	fs := &findings{report: rep, max: opts.MaxPerCode, count: map[string]int{}}
	if fs.max == 0 {
		fs.max = DefaultMaxPerCode
	}
	m, err := scanModel(ctx, r, ra, name, size, fs)
	if err != nil {
		return nil, nil, err
	}
	if opts.truncated != nil && opts.truncated() {
		m.torn = true
		fs.add("line.truncated", max(m.lines, 1), m.bytes, "the compressed stream ends early, after %d bytes of text (a crash while it was written); the lines it yields are kept", m.bytes)
	}
	s := analyseStructure(m, fs)
	rep.Version, rep.Lines, rep.Bytes = s.version, m.lines, m.bytes
	rep.Entries = s.nodes()
	if !opts.forRepair {
		m, s = nil, nil
	}
	reread := ra
	if reread == nil {
		reread = opts.reread
	}
	rix := requestIndex(reread, name)
	requests := requestProblems(rix)
	reportRequests(rix, requests, fs)
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		return a.Line < b.Line || (a.Line == b.Line && a.Offset < b.Offset)
	})
	return rep, &analysed{m: m, s: s, report: rep, requestIx: rix, requests: requests}, nil
}

// analysed is a validated file, the input to a repair plan.
type analysed struct {
	m      *model
	s      *structure
	report *Report
	// requestIx is the input as Pi loads it (nil when it cannot be read
	// again), requests the problems of its requests, active leaf first.
	requestIx *jsonl.Index
	requests  []jsonl.LeafRequest
}
