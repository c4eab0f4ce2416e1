package repair_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
)

// repairBytes repairs in (a session's bytes) in memory and returns the
// output, the quarantine (nil when none) and the result.
func repairBytes(t testing.TB, in []byte, opts repair.Options) ([]byte, []byte, *repair.Result) {
	t.Helper()
	var out, q bytes.Buffer
	res, err := repair.Repair(context.Background(), bytes.NewReader(in), int64(len(in)), "mem.jsonl", &out, &q, opts)
	if err != nil {
		t.Fatalf("repair: %v", err)
	}
	var qb []byte
	if q.Len() > 0 {
		qb = q.Bytes()
	}
	return out.Bytes(), qb, res
}

// repairFile repairs in (a file's bytes) through a file in a temporary
// folder and returns the output, the quarantine (nil when none) and the
// result.
func repairFile(t testing.TB, in []byte, opts repair.Options) ([]byte, []byte, *repair.Result) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(src, in, 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Output, opts.Force = filepath.Join(dir, "out.jsonl"), true
	res, err := repair.RepairFile(context.Background(), src, nil, opts)
	if err != nil {
		t.Fatalf("repair: %v", err)
	}
	out, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	var q []byte
	if res.Quarantine != "" {
		if q, err = os.ReadFile(res.Quarantine); err != nil {
			t.Fatal(err)
		}
	}
	return out, q, res
}

func validateBytes(t testing.TB, in []byte) *repair.Report {
	t.Helper()
	rep, err := repair.Validate(context.Background(), bytes.NewReader(in), "mem.jsonl", repair.ValidateOptions{MaxPerCode: -1})
	if err != nil {
		t.Fatalf("validate: %v", err)
	}
	return rep
}

// linkKeys are the fields repair may rewrite in an entry it keeps.
var linkKeys = []string{"id", "parentId", "firstKeptEntryId", "firstKeptEntryIndex", "targetId", "fromId", "version"}

// reduced is an object without its link fields (and a message without its
// toolName), in a canonical form, so a rewritten entry matches its input.
func reduced(b []byte) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return "", false
	}
	for _, k := range linkKeys {
		delete(m, k)
	}
	if raw, ok := m["message"]; ok {
		var msg map[string]json.RawMessage
		if json.Unmarshal(raw, &msg) == nil && msg != nil {
			delete(msg, "toolName")
			m["message"], _ = json.Marshal(msg)
		}
	}
	out, _ := json.Marshal(m)
	return string(out), true
}

// normalise is what repair may do to any input line: drop NULs, replace
// invalid UTF-8, drop the CR and the BOM.
func normalise(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\r"))
	line = bytes.TrimPrefix(line, []byte{0xEF, 0xBB, 0xBF})
	line = bytes.ReplaceAll(line, []byte{0}, nil)
	return jsonl.ToValidUTF8(line)
}

// checkCoverage asserts that every input byte is in the output or the
// quarantine: each input line is tiled by output lines, quarantined pieces
// and entries that the output holds with only their link fields changed.
func checkCoverage(t testing.TB, name string, in, out, q []byte) {
	t.Helper()
	outLines, qLines, outReduced := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, l := range bytes.Split(out, []byte("\n")) {
		outLines[string(l)] = true
		if r, ok := reduced(l); ok {
			outReduced[r] = true
		}
	}
	var pieces [][]byte
	for _, l := range bytes.Split(q, []byte("\n")) {
		qLines[string(normalise(l))] = true
		pieces = append(pieces, normalise(l))
	}
	for n, raw := range bytes.Split(in, []byte("\n")) {
		line := normalise(raw)
		if len(bytes.TrimSpace(line)) == 0 || outLines[string(line)] || qLines[string(line)] {
			continue
		}
		if pos := tile(line, pieces, outLines, outReduced); pos < len(line) {
			t.Errorf("%s: line %d: bytes from %d on are in neither output nor quarantine: %.80q", name, n+1, pos, line[pos:])
			return
		}
	}
}

// tile covers as much of line as it can with white space, quarantined
// pieces and objects the output holds, trying every way (a piece like "{"
// may also start an object), and returns how far it got.
func tile(line []byte, pieces [][]byte, outLines, outReduced map[string]bool) int {
	reach := make([]bool, len(line)+1)
	reach[0] = true
	best := 0
	for pos := 0; pos <= len(line); pos++ {
		if !reach[pos] {
			continue
		}
		best = pos
		if pos == len(line) {
			break
		}
		if c := line[pos]; c == ' ' || c == '\t' || c == '\r' {
			reach[pos+1] = true
		}
		for _, p := range pieces {
			if len(p) > 0 && bytes.HasPrefix(line[pos:], p) {
				reach[pos+len(p)] = true
			}
		}
		if n := objectLen(line[pos:]); n > 0 {
			obj := line[pos : pos+n]
			r, _ := reduced(obj)
			if outLines[string(bytes.TrimSpace(obj))] || outReduced[r] {
				reach[pos+n] = true
			}
		}
	}
	return best
}

// objectLen returns the length of the JSON value b starts with, 0 if none.
func objectLen(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil || len(raw) == 0 || raw[0] != '{' {
		return 0
	}
	return int(dec.InputOffset())
}

func readCorpus(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasCode(rep *repair.Report, code string) bool {
	for _, f := range rep.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}
