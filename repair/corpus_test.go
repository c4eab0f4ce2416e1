package repair_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/repair"
)

// corrupt lists the damaged corpus files, the code validate must report for
// each, and the intact file repair must give back byte for byte (if any).
var corrupt = []struct {
	file, code, restores string
}{
	{"compaction-missing-kept.jsonl", "compaction.first-kept-missing", ""},
	{"crlf-bom.jsonl", "line.bom", "v3/linear.jsonl"},
	{"dangling-parent.jsonl", "parents.dangling", ""},
	{"duplicate-flush.jsonl", "header.duplicate", "v3/linear.jsonl"},
	{"duplicate-ids.jsonl", "ids.duplicate-conflict", ""},
	{"empty.jsonl", "header.missing", ""},
	{"garbage-line.jsonl", "line.garbage", "v3/linear.jsonl"},
	{"invalid-utf8.jsonl", "line.invalid-utf8", ""},
	{"joined-lines.jsonl", "line.joined", "v3/linear.jsonl"},
	{"missing-header.jsonl", "header.missing", ""},
	{"nul-tail.jsonl", "line.nul", "v3/linear.jsonl"},
	{"parent-cycle.jsonl", "parents.cycle", "v3/linear.jsonl"},
	{"truncated-tail.jsonl", "line.truncated", ""},
}

// TestCorrupt: validate finds each damage, repair fixes it, Pi's context of
// the repaired file (a golden from pi-ref) equals pitool's, no byte is lost,
// and a second repair changes nothing.
func TestCorrupt(t *testing.T) {
	for _, c := range corrupt {
		t.Run(c.file, func(t *testing.T) {
			in := readCorpus(t, "corrupt/"+c.file)
			rep := validateBytes(t, in)
			if !rep.HasProblems() || !hasCode(rep, c.code) {
				t.Fatalf("validate: want %s, got %v", c.code, rep.Codes())
			}
			out, q, _ := repairFile(t, in, repair.Options{})
			if mem, _, _ := repairBytes(t, in, repair.Options{}); !bytes.Equal(afterFirstLine(mem), afterFirstLine(out)) {
				t.Errorf("Repair and RepairFile disagree") // a recreated header's id comes from the file name
			}
			if after := validateBytes(t, out); after.HasProblems() {
				t.Errorf("repaired file still has findings: %+v", after.Findings)
			}
			checkCoverage(t, c.file, in, out, q)
			checkIdempotent(t, out)
			if c.restores != "" && !bytes.Equal(out, readCorpus(t, c.restores)) {
				t.Errorf("repair does not give back %s byte for byte", c.restores)
			}
			compareWithPi(t, "corrupt-"+c.file, out)
		})
	}
}

func afterFirstLine(b []byte) []byte {
	_, rest, _ := bytes.Cut(b, []byte("\n"))
	return rest
}

func TestTruncatedTailKeepsCompletePrefix(t *testing.T) {
	out, q, res := repairFile(t, readCorpus(t, "corrupt/truncated-tail.jsonl"), repair.Options{})
	linear := readCorpus(t, "v3/linear.jsonl")
	lines := bytes.SplitAfter(linear, []byte("\n"))
	if want := bytes.Join(lines[:135], nil); !bytes.Equal(out, want) {
		t.Errorf("output is not the first 135 lines of linear.jsonl")
	}
	if !bytes.HasPrefix(lines[135], bytes.TrimSuffix(q, []byte("\n"))) || len(q) < 100 {
		t.Errorf("quarantine is not the torn last line: %.60q", q)
	}
	if res.BytesCopied != int64(len(out)) {
		t.Errorf("copied %d bytes raw, want the whole %d-byte prefix", res.BytesCopied, len(out))
	}
}

// TestValidCorpus: zero findings (info notes aside) on Pi's own files, and
// the repair of a v3 file is the file itself.
func TestValidCorpus(t *testing.T) {
	for _, rel := range []string{"v3/linear.jsonl", "v3/branched.jsonl", "v3/crashed.jsonl", "v3/agent-run.jsonl", "real/before-compaction.jsonl", "real/large-session.jsonl"} {
		in := readCorpus(t, rel)
		rep := validateBytes(t, in)
		for _, f := range rep.Findings {
			if f.Severity != repair.SevInfo {
				t.Errorf("%s: %s:%d %s", rel, f.Code, f.Line, f.Message)
			}
		}
		if strings.HasPrefix(rel, "v3/") {
			out, _, res := repairBytes(t, in, repair.Options{})
			if !bytes.Equal(out, in) || res.Changed || len(res.Fixes) != 0 {
				t.Errorf("%s: repair changed a valid file: %+v", rel, res.Fixes)
			}
		}
	}
}

// TestMigrateV1: a v1 file repaired is a v3 file whose context is Pi's and
// equals the context pitool builds from the v1 original.
func TestMigrateV1(t *testing.T) {
	for _, rel := range []string{"real/before-compaction.jsonl", "real/large-session.jsonl"} {
		in := readCorpus(t, rel)
		out, q, res := repairBytes(t, in, repair.Options{})
		if q != nil || !res.Changed {
			t.Fatalf("%s: want a migration without quarantine", rel)
		}
		after := validateBytes(t, out)
		if after.Version != 3 || len(after.Findings) != 0 {
			t.Errorf("%s: migrated file: version %d, findings %+v", rel, after.Version, after.Findings)
		}
		checkCoverage(t, rel, in, out, q)
		checkIdempotent(t, out)
		if got, orig := contextOf(t, out), contextOf(t, in); !bytes.Equal(got, orig) {
			t.Errorf("%s: context of the migrated file differs from the original's", rel)
		}
		compareWithPi(t, strings.ReplaceAll(rel, "/", "-"), out)
	}
}

// TestMigrateV2: a v2 file's hookMessage role becomes custom and its version 3.
func TestMigrateV2(t *testing.T) {
	in := file(strings.Replace(hdr, `"version":3`, `"version":2`, 1), user("a", ""),
		ent("b", "a", `"message","message":{"role":"hookMessage","customType":"x","content":"hi","display":true,"timestamp":1}`))
	out, _, _ := repairBytes(t, []byte(in), repair.Options{})
	want := file(hdr, user("a", ""), ent("b", "a", `"message","message":{"role":"custom","customType":"x","content":"hi","display":true,"timestamp":1}`))
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if got, orig := contextOf(t, out), contextOf(t, []byte(in)); !bytes.Equal(got, orig) {
		t.Errorf("context changed by the migration:\n%s\n%s", got, orig)
	}
}

func TestCloseToolCalls(t *testing.T) {
	in := readCorpus(t, "v3/crashed.jsonl")
	out, _, res := repairBytes(t, in, repair.Options{CloseToolCalls: true})
	if !bytes.HasPrefix(out, in) || len(res.Fixes) != 1 || res.Fixes[0].Code != "tools.unanswered-at-end" {
		t.Fatalf("want the file plus appended results, got fixes %+v", res.Fixes)
	}
	if after := validateBytes(t, out); len(after.Findings) != 0 {
		t.Errorf("findings after closing the calls: %+v", after.Findings)
	}
	if !bytes.Contains(out[len(in):], []byte(`"role":"toolResult","toolCallId":"toolu_322dc74f611b68f9ae10050839","toolName":"bash"`)) {
		t.Errorf("no result for the interrupted call: %s", out[len(in):])
	}
	checkIdempotent(t, out)
	compareWithPi(t, "crashed-closed", out)
}

func checkIdempotent(t *testing.T, out []byte) {
	t.Helper()
	again, q, res := repairBytes(t, out, repair.Options{})
	if !bytes.Equal(again, out) || q != nil || len(res.Fixes) != 0 {
		t.Errorf("a second repair changed the file: %+v", res.Fixes)
	}
}

// contextOf is pitool context on a session's bytes.
func contextOf(t *testing.T, b []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, closeFn, err := jsonl.IndexFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var buf bytes.Buffer
	if err := ix.WriteView(&buf, ix.ActiveLeaf(), jsonl.ViewContext); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compareWithPi compares pitool's context of a repaired file with pi-ref's
// context of it, kept as a golden in testdata/golden (regenerate with
// -update). The golden's .sha256 pins the repaired bytes it was made from,
// except for a file repaired into a recreated header alone: that header
// carries the time of the repair.
func compareWithPi(t *testing.T, name string, repaired []byte) {
	t.Helper()
	dir := filepath.Join("testdata", "golden")
	sumFile := filepath.Join(dir, name+".repaired.sha256")
	sum := fmt.Sprintf("%x\n", sha256.Sum256(repaired))
	pinned := bytes.Count(repaired, []byte("\n")) > 1
	session := filepath.Join(t.TempDir(), name)
	if *testref.Update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(session, repaired, 0o644); err != nil {
			t.Fatal(err)
		}
		if pinned {
			if err := os.WriteFile(sumFile, []byte(sum), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if kept, err := os.ReadFile(sumFile); pinned && (err != nil || string(kept) != sum) {
		t.Errorf("%s: the repaired bytes differ from those the golden was made from (rerun with -update if intended)", name)
	}
	want := testref.Golden(t, filepath.Join(dir, name+".context.json"), "context", session)
	testref.AssertJSONEqual(t, name+" context", contextOf(t, repaired), want)
}

func TestValidateFileAndStdin(t *testing.T) {
	path := filepath.Join("..", "testdata", "corpus", "corrupt", "joined-lines.jsonl")
	rep, err := repair.ValidateFile(context.Background(), path, nil, repair.ValidateOptions{})
	if err != nil || !rep.HasErrors() || rep.Findings[0].Line != 69 || rep.Findings[0].Offset != 57619 {
		t.Fatalf("want line.joined at line 69, byte 57619: %+v %v", rep, err)
	}
	if !strings.Contains(rep.Findings[0].Hint, "pitool repair --in-place") {
		t.Errorf("hint does not name the repair command: %q", rep.Findings[0].Hint)
	}
	f, _ := os.Open(path)
	defer f.Close()
	rep2, err := repair.ValidateFile(context.Background(), "-", f, repair.ValidateOptions{})
	if err != nil || len(rep2.Findings) != len(rep.Findings) || !strings.Contains(rep2.Findings[0].Hint, "-o repaired.jsonl -") {
		t.Errorf("stdin: %+v %v", rep2, err)
	}
}
