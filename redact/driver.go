package redact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// Stats sums up one redacted stream.
type Stats struct {
	Lines        int   // lines read
	ChangedLines int   // lines whose bytes changed
	TextLines    int   // lines that were not JSON and were redacted as plain text
	Bytes        int64 // bytes read (decompressed)
	Findings     int   // values replaced
	Truncated    bool  // the compressed input ended early: only what it yields was read
}

// Changed reports whether the stream had anything to replace.
func (s Stats) Changed() bool { return s.ChangedLines > 0 }

// Stream redacts every line of in and writes the result to out (nil: check
// only). Framing is kept: a BOM, CRLF endings and a missing final newline
// come out as they went in. onFinding, if set, sees each finding with its
// line number.
func (r *Redactor) Stream(ctx context.Context, in io.Reader, name string, out io.Writer, onFinding func(Finding)) (Stats, error) {
	var st Stats
	sc := jsonl.NewScanner(in, name)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		l := sc.Line()
		red, findings, err := l.Bytes, []Finding(nil), error(nil)
		if len(l.Bytes) > 0 { // a blank line holds nothing to redact
			red, findings, err = r.RedactLine(l.Bytes)
		}
		st.add(l, red, findings, err)
		for _, f := range findings {
			if onFinding != nil {
				f.Line = l.Num
				onFinding(f)
			}
		}
		if out != nil {
			if err := writeFramed(out, l, red); err != nil {
				return st, fmt.Errorf("write %s: %w", name, err)
			}
		}
	}
	return st, sc.Err()
}

func (st *Stats) add(l jsonl.Line, red []byte, findings []Finding, err error) {
	st.Lines++
	st.Bytes += int64(l.Length)
	st.Findings += len(findings)
	if len(findings) > 0 || len(red) != len(l.Bytes) || (len(red) > 0 && &red[0] != &l.Bytes[0]) {
		st.ChangedLines++
	}
	if errors.Is(err, ErrNotJSON) && len(findings) > 0 {
		st.TextLines++
	}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

func writeFramed(out io.Writer, l jsonl.Line, red []byte) error {
	parts := [][]byte{nil, red, nil}
	if l.BOM {
		parts[0] = bom
	}
	switch {
	case l.Unterminated && l.CR:
		parts[2] = []byte{'\r'}
	case l.CR:
		parts[2] = []byte("\r\n")
	case !l.Unterminated:
		parts[2] = []byte{'\n'}
	}
	for _, p := range parts {
		if _, err := out.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// RedactFile redacts the session file path ("-" for stdin) to out, which is
// compressed like the input (what an in-place rewrite needs); out nil only
// checks, whatever the file holds. A file that is not a Pi session is not
// redacted to out: nothing is written and the error is a
// *jsonl.NotSessionError.
func (r *Redactor) RedactFile(ctx context.Context, path string, stdin io.Reader, out io.Writer, onFinding func(Finding)) (Stats, error) {
	st, _, err := r.redactFile(ctx, path, stdin, out, keepCompression, onFinding)
	return st, err
}

// keepCompression asks redactFile to write the input's own compression.
const keepCompression jsonl.Compression = -1

// RedactFileTo is RedactFile writing out with compression comp: for an
// output the user names, jsonl.CompressionForName of that name.
func (r *Redactor) RedactFileTo(ctx context.Context, path string, stdin io.Reader, out io.Writer, comp jsonl.Compression, onFinding func(Finding)) (Stats, error) {
	st, _, err := r.redactFile(ctx, path, stdin, out, comp, onFinding)
	return st, err
}

// redactFile is RedactFileTo that also returns the input's compression.
func (r *Redactor) redactFile(ctx context.Context, path string, stdin io.Reader, out io.Writer, comp jsonl.Compression, onFinding func(Finding)) (Stats, jsonl.Compression, error) {
	src, err := jsonl.Open(path, stdin)
	if err != nil {
		return Stats{}, 0, err
	}
	defer src.Close()
	return r.redactSource(ctx, src, out, comp, onFinding)
}

// redactSource is redactFile on an opened source.
func (r *Redactor) redactSource(ctx context.Context, src *jsonl.Source, out io.Writer, comp jsonl.Compression, onFinding func(Finding)) (Stats, jsonl.Compression, error) {
	path := src.Name
	if out == nil {
		st, err := r.Stream(ctx, src.Reader(), path, nil, onFinding)
		st.Truncated = src.Truncated()
		return st, src.Compression, err
	}
	if err := src.CheckSession(); err != nil {
		return Stats{}, src.Compression, err
	}
	if comp == keepCompression {
		comp = src.Compression
	}
	w, err := jsonl.NewWriter(out, comp)
	if err != nil {
		return Stats{}, src.Compression, err
	}
	st, err := r.Stream(ctx, src.Reader(), path, w, onFinding)
	st.Truncated = src.Truncated()
	if cerr := w.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", path, cerr)
	}
	return st, src.Compression, err
}

// ReplaceOptions controls ReplaceFile.
type ReplaceOptions struct {
	Force  bool // rewrite a file modified within safefile.IdleTime: it may belong to a live Pi session
	Backup bool // keep the plaintext original as FILE.bak, readable by its owner only
}

// backupMode is the mode of a backup that holds plaintext secrets.
const backupMode = 0o600

// ReplaceFile redacts path in place: a first pass looks for findings, and
// only when there are some is the file rewritten through safefile's in-place
// protocol (lock, stamp, recheck before the rename). Lines Pi appends
// meanwhile are redacted too before they are carried over. A file that is not
// a Pi session is refused before anything is read or written. It returns where
// the backup went ("" without opts.Backup: no plaintext copy is kept).
func (r *Redactor) ReplaceFile(ctx context.Context, path string, opts ReplaceOptions, onFinding func(Finding)) (Stats, string, error) {
	if err := jsonl.CheckSessionFile(path); err != nil {
		return Stats{}, "", err
	}
	if err := safefile.GuardLive(path, opts.Force); err != nil {
		return Stats{}, "", err
	}
	edit, err := safefile.Begin(path)
	if err != nil {
		return Stats{}, "", err
	}
	defer edit.Close()
	st, _, err := r.redactStamped(ctx, edit, path, nil, onFinding)
	if err != nil || !st.Changed() {
		return st, "", err
	}
	carry := func(w io.Writer, appended []byte) error {
		_, err := r.Stream(ctx, bytes.NewReader(appended), path, w, nil)
		return err
	}
	res, err := edit.Commit(safefile.CommitOptions{Backup: opts.Backup, BackupMode: backupMode, Carry: carry}, func(w io.Writer) (int64, error) {
		st, comp, err := r.redactStamped(ctx, edit, path, w, nil)
		if comp != jsonl.Plain {
			return -1, err
		}
		return st.Bytes, err
	})
	return st, res.Backup, err
}

// redactStamped is redactFile on the bytes of path that edit stamped
// (keeping their compression): lines appended after them are redacted as
// Commit carries them.
func (r *Redactor) redactStamped(ctx context.Context, edit *safefile.Edit, path string, out io.Writer, onFinding func(Finding)) (Stats, jsonl.Compression, error) {
	src, err := jsonl.OpenSection(path, edit.Snapshot())
	if err != nil {
		return Stats{}, 0, err
	}
	defer src.Close()
	return r.redactSource(ctx, src, out, keepCompression, onFinding)
}
