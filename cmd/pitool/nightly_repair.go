package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pitool/pitool/archive"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
)

// validateAndRepair validates path and repairs it in place (keeping a
// backup, as repair -i does) when it needs it; with dryRun it repairs a copy
// in memory and returns its bytes as fixed, for the next steps to be
// decided on. ok is false when the file must not be archived or compacted:
// it failed, or repair leaves it invalid (action "damaged", with the reason).
func validateAndRepair(ctx context.Context, r fileReport, path string, dryRun bool) (_ fileReport, fixed []byte, ok bool) {
	rep, err := repair.ValidateFile(ctx, path, nil, repair.ValidateOptions{})
	if err != nil {
		return r.failed(err), nil, false
	}
	if !needsRepair(rep) {
		return r, nil, true
	}
	r.damage = rep.Codes()
	var rp repairer = &repairInPlace{path: path}
	if dryRun {
		data, err := plainBytes(path)
		if err != nil {
			return r.failed(err), nil, false
		}
		rp = &repairInMemory{path: path, data: data}
	}
	r, ok = repairPasses(ctx, r, rp)
	if m, isMem := rp.(*repairInMemory); isMem && ok && !archive.IsCompressed(path) {
		// a compressed file stays compressed once repaired: neither archived
		// nor compacted, as its own bytes already tell the next steps
		fixed = m.data
	}
	return r, fixed, ok
}

// repairer is the repair of one file: in place, or (--dry-run) in memory.
type repairer interface {
	repair(ctx context.Context) (*repair.Result, error)
	validate(ctx context.Context) (*repair.Report, error)
	leftErrors() string // the detail of a file repair leaves invalid
}

// repairPasses repairs with rp until the file validates, at most
// maxRepairPasses times.
func repairPasses(ctx context.Context, r fileReport, rp repairer) (fileReport, bool) {
	for pass := 1; ; pass++ {
		res, err := rp.repair(ctx)
		if err != nil {
			return r.failed(fmt.Errorf("repair: %w", err)), false
		}
		r.repaired = r.repaired || res.Changed
		if r.backup == "" {
			r.backup = res.Backup // the first pass's backup holds the file as it was
		}
		again, err := rp.validate(ctx)
		if err == nil && !needsRepair(again) {
			return r, true
		}
		if err != nil || !res.Changed || pass == maxRepairPasses {
			return r.did(actDamaged, rp.leftErrors()+strings.Join(remainingCodes(again, err), ", ")), false
		}
	}
}

// repairInPlace repairs the file itself, as repair -i does.
type repairInPlace struct{ path string }

func (p *repairInPlace) repair(ctx context.Context) (*repair.Result, error) {
	// the caller checked --min-idle, so repair's own idle check is not needed
	return repair.RepairFile(ctx, p.path, nil, repair.Options{InPlace: true, Force: true})
}

func (p *repairInPlace) leftErrors() string { return "repair left errors: " }

func (p *repairInPlace) validate(ctx context.Context) (*repair.Report, error) {
	return repair.ValidateFile(ctx, p.path, nil, repair.ValidateOptions{})
}

// repairInMemory repairs a copy of the file's bytes, for --dry-run: the lines
// repair would quarantine are dropped, nothing is written.
type repairInMemory struct {
	path string
	data []byte
}

func (m *repairInMemory) repair(ctx context.Context) (*repair.Result, error) {
	var out bytes.Buffer
	res, err := repair.Repair(ctx, bytes.NewReader(m.data), int64(len(m.data)), m.path, &out, io.Discard, repair.Options{})
	if err == nil && res.Changed {
		m.data = out.Bytes()
	}
	return res, err
}

func (m *repairInMemory) leftErrors() string { return "repair would leave errors: " }

func (m *repairInMemory) validate(ctx context.Context) (*repair.Report, error) {
	return repair.Validate(ctx, bytes.NewReader(m.data), m.path, repair.ValidateOptions{})
}

// plainBytes reads a session file's bytes, decompressed.
func plainBytes(path string) ([]byte, error) {
	src, err := jsonl.Open(path, nil)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	data, err := io.ReadAll(src.Reader())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// archivableNow reports whether path may be archived: with fixed (the bytes
// a dry run's repair left), whether it would be once repaired.
func archivableNow(path string, fixed []byte) bool {
	if fixed == nil {
		return archive.Archivable(path)
	}
	return strings.HasSuffix(path, ".jsonl") && !archive.IsCompressed(path) && bytes.HasSuffix(fixed, []byte("\n"))
}

// maxRepairPasses is how many times nightly repairs one file in a run. A
// repair that drops or renumbers entries leaves the request fix (issue 12)
// to a second pass over its output, since the fix names the entries Pi will
// load.
const maxRepairPasses = 2

// needsRepair is true for errors, and for the framing warnings that keep Pi
// from opening a file (a byte-order mark) or from appending cleanly (CRLF).
func needsRepair(rep *repair.Report) bool {
	if rep.HasErrors() {
		return true
	}
	for _, c := range rep.Codes() {
		if c == "line.bom" || c == "line.crlf" {
			return true
		}
	}
	return false
}

func remainingCodes(rep *repair.Report, err error) []string {
	if err != nil {
		return []string{err.Error()}
	}
	return rep.Codes()
}
