package repair_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/repair"
)

// validFiles are the sessions the damage tests start from.
var validFiles = []string{"v3/linear.jsonl", "v3/branched.jsonl", "v3/agent-run.jsonl", "v3/crashed.jsonl"}

// damage is one kind of random damage applied to a session's bytes.
type damage struct {
	name  string
	apply func(r *rand.Rand, b []byte) []byte
}

var damages = []damage{
	{"truncate", func(r *rand.Rand, b []byte) []byte { return b[:r.IntN(len(b))] }},
	{"delete-lines", func(r *rand.Rand, b []byte) []byte { return editLines(r, b, deleteLine) }},
	{"duplicate-lines", func(r *rand.Rand, b []byte) []byte { return editLines(r, b, duplicateLine) }},
	{"join-lines", func(r *rand.Rand, b []byte) []byte { return editLines(r, b, joinLine) }},
	{"flip-bytes", flipBytes},
	{"insert-nuls", insertNULs},
}

func editLines(r *rand.Rand, b []byte, edit func(lines [][]byte, k int) [][]byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	for n := 1 + r.IntN(3); n > 0 && len(lines) > 1; n-- {
		lines = edit(lines, r.IntN(len(lines)-1))
	}
	return bytes.Join(lines, nil)
}

func deleteLine(lines [][]byte, k int) [][]byte { return append(lines[:k:k], lines[k+1:]...) }

func duplicateLine(lines [][]byte, k int) [][]byte {
	out := append(lines[:k+1:k+1], lines[k])
	return append(out, lines[k+1:]...)
}

func joinLine(lines [][]byte, k int) [][]byte {
	joined := append(bytes.TrimSuffix(append([]byte(nil), lines[k]...), []byte("\n")), lines[k+1]...)
	out := append(lines[:k:k], joined)
	return append(out, lines[k+2:]...)
}

func flipBytes(r *rand.Rand, b []byte) []byte {
	b = append([]byte(nil), b...)
	for n := 1 + r.IntN(4); n > 0; n-- {
		b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
	}
	return b
}

func insertNULs(r *rand.Rand, b []byte) []byte {
	at := r.IntN(len(b) + 1)
	out := append(append([]byte(nil), b[:at]...), make([]byte, 1+r.IntN(64))...)
	return append(out, b[at:]...)
}

// TestRandomDamage damages valid sessions in every way, many times, and
// checks the properties: no panic, no input byte lost, a repaired file with
// no finding repair fixes, and a second repair that changes nothing.
func TestRandomDamage(t *testing.T) {
	rounds := 12
	if testing.Short() {
		rounds = 3
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, rel := range validFiles {
		clean := readCorpus(t, rel)
		for _, d := range damages {
			for round := 0; round < rounds; round++ {
				in := d.apply(r, clean)
				name := rel + "/" + d.name
				checkRepairProperties(t, name, in, repair.Options{})
				if t.Failed() {
					t.Fatalf("%s round %d failed; input kept in %s", name, round, keepFailure(t, in))
				}
			}
		}
	}
}

func checkRepairProperties(t *testing.T, name string, in []byte, opts repair.Options) {
	t.Helper()
	out, q, _ := repairBytes(t, in, opts)
	checkCoverage(t, name, in, out, q)
	for _, f := range validateBytes(t, out).Findings {
		if repair.Fixable(f.Code, opts.CloseToolCalls) && f.Severity != repair.SevInfo {
			t.Errorf("%s: repaired file still has %s at line %d: %s", name, f.Code, f.Line, f.Message)
		}
	}
	again, q2, res := repairBytes(t, out, opts)
	if !bytes.Equal(again, out) || q2 != nil {
		t.Errorf("%s: repair is not idempotent: %+v", name, res.Fixes)
	}
}

func keepFailure(t *testing.T, in []byte) string {
	path := filepath.Join(os.TempDir(), "pitool-repair-failure.jsonl")
	os.WriteFile(path, in, 0o644)
	return path
}

// TestRepairValidIsIdentity: the repair of every valid v3 session, whole or
// cut after any line, is the input byte for byte.
func TestRepairValidIsIdentity(t *testing.T) {
	for _, rel := range validFiles {
		clean := readCorpus(t, rel)
		lines := bytes.SplitAfter(clean, []byte("\n"))
		for _, n := range []int{1, 2, len(lines) / 3, len(lines) / 2, len(lines) - 1} {
			in := bytes.Join(lines[:n], nil)
			if validateBytes(t, in).HasProblems() {
				continue
			}
			if out, _, res := repairBytes(t, in, repair.Options{}); !bytes.Equal(out, in) || res.Changed {
				t.Errorf("%s cut at %d lines: repair changed it: %+v", rel, n, res.Fixes)
			}
		}
	}
}

// fuzzSeeds adds a self-cycle joined with a torn label; the checked-in
// corpus in testdata/fuzz holds the heads of the v3 sessions with each kind
// of damage.
func fuzzSeeds(f *testing.F) {
	f.Add([]byte("{\"type\":\"session\",\"version\":3,\"id\":\"x\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/\"}\n{\"type\":\"message\",\"id\":\"a\",\"parentId\":\"a\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}{\"type\":\"label\"\n"))
}

// FuzzValidate: validation never panics and always reports positions inside
// the input.
func FuzzValidate(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := repair.Validate(context.Background(), bytes.NewReader(in), "fuzz.jsonl", repair.ValidateOptions{})
		if err != nil {
			return
		}
		for _, fd := range rep.Findings {
			if fd.Offset < 0 || fd.Offset > int64(len(in)) || fd.Line < 0 {
				t.Fatalf("finding outside the input: %+v", fd)
			}
		}
	})
}

// FuzzRepair: repair never panics, loses no byte, leaves no finding it
// fixes, and is idempotent; and a file in which validate finds nothing that
// repair fixes comes out byte for byte, reported unchanged.
func FuzzRepair(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := repair.Options{CloseToolCalls: len(in)%2 == 0}
		checkRepairProperties(t, "fuzz", in, opts)
		if !hasFixable(validateBytes(t, in), opts) {
			if out, q, res := repairBytes(t, in, opts); !bytes.Equal(out, in) || q != nil || res.Changed {
				t.Fatalf("nothing to fix, yet repair changed the file: %+v\n%q\n%q", res.Fixes, in, out)
			}
		}
	})
}

// hasFixable reports whether rep has a finding repair fixes with opts.
func hasFixable(rep *repair.Report, opts repair.Options) bool {
	for _, f := range rep.Findings {
		if repair.Fixable(f.Code, opts.CloseToolCalls) {
			return true
		}
	}
	return false
}
