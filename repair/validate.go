package repair

import (
	"context"
	"io"
	"runtime"
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
	// forRepair keeps the model and the structure for a repair plan; without
	// it they are dropped before the request check.
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
	// already, and stdin is spooled here, so objects are read back from
	// them too.
	ra, err := src.ReaderAt()
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
	ra, _ := r.(io.ReaderAt)
	rep, _, err := validate(ctx, r, ra, name, 0, opts)
	return rep, err
}

// collectAfterBytes is the size of a session from which validate collects
// the model's garbage before the request check. Below it the model's heap is
// small, and a forced collection per file cost more than the file: nightly
// over 10,000 tiny sessions spent most of its CPU in runtime.GC waiting for
// the sweep, four validations at a time (issue 28).
const collectAfterBytes = 16 << 20

// validate runs both passes; ra, when not nil, lets it read objects back
// instead of hashing every one and keeping their tool texts. size is the
// input's size if known.
func validate(ctx context.Context, r io.Reader, ra io.ReaderAt, name string, size int64, opts ValidateOptions) (*Report, *analysed, error) {
	rep := &Report{File: name, Findings: []Finding{}}
	fs := &findings{report: rep, max: opts.MaxPerCode, count: map[string]int{}}
	if fs.max == 0 {
		fs.max = DefaultMaxPerCode
	}
	load := loadIndexer(ra, name, size)
	m, err := scanModel(ctx, r, ra, name, size, fs, load)
	if err != nil {
		return nil, nil, err
	}
	if opts.truncated != nil && opts.truncated() {
		m.torn = true
		fs.add("line.truncated", max(m.lines, 1), m.bytes, "the compressed stream ends early, after %d bytes of text (a crash while it was written); the lines it yields are kept", m.bytes)
	}
	s := analyseStructure(m, fs)
	if m.readErr != nil {
		return nil, nil, m.readErr
	}
	rep.Version, rep.Lines, rep.Bytes = s.version, m.lines, m.bytes
	rep.Entries = s.nodes()
	if !opts.forRepair {
		big := m.bytes >= collectAfterBytes
		m, s = nil, nil
		if big {
			// Nothing large is live now, so this collection costs little; it
			// keeps the collector from pacing the request check from the
			// model's heap, which on a loaded machine held that heap's size as
			// garbage marked during each cycle (c400k: 156 MB peak, 103 with it).
			runtime.GC()
		}
	}
	rix := requestIndex(load)
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
