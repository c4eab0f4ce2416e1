package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/jsonout"
	"github.com/pitool/pitool/internal/runner"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// fleetFileTime is the modification time of every file of the fleet folder,
// so that Pi's fallback to it ("modified" of a session without timestamps)
// is the same in every run.
var fleetFileTime = time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, time.UTC)

// fleetEdges are hand-made sessions at the edges of Pi's listing rules
// (buildSessionInfo in Pi's session-manager.js), by file name.
var fleetEdges = map[string]string{
	// lines JSON.parse refuses, and falsy values, are passed over before the header
	"edge-skipped-before-header.jsonl": "not json\nnull\nfalse\n0\n\"\"\n\n" + `{"type":"session","version":3,"id":"e1","timestamp":"2026-02-01T00:00:00.000Z","cwd":"/w"}` + "\n" +
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-02-01T00:00:05.000Z","message":{"role":"user","content":"after junk","timestamp":1769904010000}}` + "\n",
	// any other entry first: Pi lists nothing
	"edge-entry-before-header.jsonl": `{"type":"message","id":"m0","parentId":null,"timestamp":"2026-02-01T00:00:05.000Z","message":{"role":"user","content":"early"}}` + "\n" +
		`{"type":"session","version":3,"id":"e2","timestamp":"2026-02-01T00:00:00.000Z","cwd":"/w"}` + "\n",
	"edge-number-before-header.jsonl": "7\n" + `{"type":"session","version":3,"id":"e3","timestamp":"2026-02-01T00:00:00.000Z","cwd":"/w"}` + "\n",
	// a header alone, and a header without a timestamp (modified is the file's time)
	"edge-header-only.jsonl": `{"type":"session","version":3,"id":"e4","timestamp":"2026-02-02T00:00:00.000Z","cwd":"/w"}`,
	"edge-untimed.jsonl":     `{"type":"session","version":3,"id":"e5","cwd":"/w"}` + "\n" + `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"no time"}}` + "\n",
	// names: the latest counts, a blank one clears; text blocks joined with spaces;
	// string and numeric message times; assistants count as activity, others not
	"edge-names.jsonl": `{"type":"session","version":3,"id":"e6","timestamp":"2026-02-03T00:00:00.000Z","cwd":"/w","parentSession":"/p/s.jsonl"}` + "\n" +
		`{"type":"session_info","id":"n1","parentId":null,"timestamp":"2026-02-03T00:00:01.000Z","name":"  first  "}` + "\n" +
		`{"type":"message","id":"m1","parentId":"n1","timestamp":"2026-02-03T00:00:02.000Z","message":{"role":"user","content":[{"type":"image"},{"type":"text","text":"two"},{"type":"text","text":"blocks"}],"timestamp":"1770076803000"}}` + "\n" +
		`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-02-03T00:00:09.000Z","message":{"role":"toolResult","content":"later but no activity","timestamp":1770076900000}}` + "\n" +
		`{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-02-03T00:00:04.000Z","message":{"role":"assistant","content":[],"timestamp":1770076805500}}` + "\n" +
		`{"type":"session_info","id":"n2","parentId":"m3","timestamp":"2026-02-03T00:00:05.000Z","name":"second"}` + "\n" +
		`{"type":"session_info","id":"n3","parentId":"n2","timestamp":"2026-02-03T00:00:06.000Z","name":"   "}` + "\n" +
		`{"type":"session_info","id":"n4","parentId":"n3","timestamp":"2026-02-03T00:00:07.000Z","name":"third"}` + "\n" +
		`{"type":"message","id":"m4","parentId":"n4","timestamp":"2026-02-03T00:00:08.000Z","message":{"role":"user"}}` + "\n" +
		`{"type":"message","id":"m5","parentId":"m4","timestamp":"2026-02-03T00:00:08.000Z","message":{"role":"user","content":"second user"}}` + "\n",
	// lines Pi's listing throws a TypeError on, so that it drops the file, and
	// their neighbours it reads
	"edge-no-message.jsonl":   fleetHeader("e8") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z"}` + "\n",
	"edge-null-content.jsonl": fleetHeader("e9") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","message":{"role":"user","content":null}}` + "\n",
	"edge-null-block.jsonl":   fleetHeader("e10") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"x"},null]}}` + "\n",
	// the null check steps over strings and nested values by brackets: a null
	// element after white space is one, nulls nested in a block or spelled
	// in a string are not
	"edge-null-block-spaced.jsonl": fleetHeader("e13") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","message":{"role":"user","content":[ {"type":"text","text":"a, null [null"} ,` + "\t" + `null ]}}` + "\n",
	"edge-null-nested.jsonl":       fleetHeader("e14") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"[null, null] ,null","extra":[null,{"n":null}],"x":{"n":null}},{"type":"toolCall","id":"t","name":"n","arguments":{"a":[null]}}]}}` + "\n",
	"edge-number-name.jsonl":       fleetHeader("e11") + `{"type":"session_info","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","name":5}` + "\n",
	"edge-string-message.jsonl":    fleetHeader("e12") + `{"type":"message","id":"a","parentId":null,"timestamp":"2026-02-05T00:00:01.000Z","message":"hi"}` + "\n" + `{"type":"session_info","id":"b","parentId":"a","timestamp":"2026-02-05T00:00:02.000Z","name":null}` + "\n" + `{"type":"message","id":"c","parentId":"b","timestamp":"2026-02-05T00:00:03.000Z","message":{"role":"toolResult","content":null}}` + "\n",
	// a torn last line, an escaped type and CRLF line ends
	"edge-torn.jsonl": `{"type":"session","version":3,"id":"e7","timestamp":"2026-02-04T00:00:00.000Z","cwd":"/w"}` + "\r\n" +
		`{"type":"mess\u0061ge","id":"m1","parentId":null,"timestamp":"2026-02-04T00:00:01.000Z","message":{"role":"user","content":"escaped type"}}` + "\r\n" +
		`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-02-04T00:00:02.000Z","message":{"role":"user","content":"cut`,
}

// fleetHeader is a header line of the session id.
func fleetHeader(id string) string {
	return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-02-05T00:00:00.000Z","cwd":"/w"}` + "\n"
}

// writeListFleet fills dir with a folder of sessions of every shape the
// generator makes (n of them, of 2 to 60 entries, linear and branched,
// compacted, tool-heavy, Unicode, in several cwds), every corpus file,
// the edge cases, and a symlink to one of the sessions, all with one
// modification time.
func writeListFleet(t *testing.T, dir string, n int) {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		opts := gen.Options{Seed: uint64(i + 1), Entries: 2 + i%59, ToolResultBytes: 120, ToolHeavy: i%5 == 0, Unicode: i%3 == 0,
			Cwd: fmt.Sprintf("/home/dev/p%d", i%7), Timestamp: base.Add(time.Duration(i*37) * time.Minute)}
		if i%4 == 0 {
			opts.BranchEvery = 12
		}
		if i%6 == 0 {
			opts.CompactionEvery = 25
		}
		var buf bytes.Buffer
		if _, err := gen.Write(&buf, opts); err != nil {
			t.Fatal(err)
		}
		writeListFleetFile(t, filepath.Join(dir, fmt.Sprintf("2026-01-01T00-00-00-000Z_g%03d.jsonl", i)), buf.Bytes())
	}
	corpus, err := filepath.Glob(testref.Corpus("*/*.jsonl"))
	if err != nil || len(corpus) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	for _, path := range corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		writeListFleetFile(t, filepath.Join(dir, "corpus-"+filepath.Base(filepath.Dir(path))+"-"+filepath.Base(path)), data)
	}
	for name, text := range fleetEdges {
		writeListFleetFile(t, filepath.Join(dir, name), []byte(text))
	}
	if err := os.Symlink("2026-01-01T00-00-00-000Z_g001.jsonl", filepath.Join(dir, "linked.jsonl")); err != nil {
		t.Fatal(err)
	}
}

func writeListFleetFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fleetFileTime, fleetFileTime); err != nil {
		t.Fatal(err)
	}
}

// piRowFields keeps of Pi's ls answer the fields of each row that pitool's
// row has: Pi's allMessagesText (its search text) would make the golden
// megabytes long.
func piRowFields(out []byte) []byte {
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil {
		return out // kept whole: the comparison then fails and shows it
	}
	for _, r := range rows {
		delete(r, "allMessagesText")
	}
	kept, _ := json.MarshalIndent(rows, "", "\t")
	return append(kept, '\n')
}

// TestLsFleetMatchesPi lists a generated folder of 240 sessions of every
// shape, the whole corpus (damaged files included), the edge cases of Pi's
// rules and a symlink, and checks every row of pitool ls against pi-ref ls:
// the same sessions, in the same order, with the same fields.
func TestLsFleetMatchesPi(t *testing.T) {
	dir := t.TempDir()
	writeListFleet(t, dir, 240)
	var want []lsFields
	if err := json.Unmarshal(folderGoldenOf(t, "fleet.ls.json", dir, piRowFields, "ls", dir), &want); err != nil {
		t.Fatal(err)
	}
	var got []lsFields
	for _, row := range lsJSON(t, dir) {
		if row.Path != "" { // a skipped file's row has none
			got = append(got, row)
		}
	}
	if len(want) < 240 {
		t.Fatalf("pi-ref lists %d sessions, want at least 240", len(want))
	}
	if len(got) != len(want) {
		t.Errorf("ls lists %d sessions, pi-ref %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	listed := map[string]bool{}
	for _, row := range want {
		listed[row.Path] = true
	}
	for _, edge := range []string{"DIR/linked.jsonl", "DIR/edge-skipped-before-header.jsonl", "DIR/edge-torn.jsonl", "DIR/edge-string-message.jsonl", "DIR/edge-null-nested.jsonl"} {
		if !listed[edge] {
			t.Errorf("pi-ref does not list %s: the fleet no longer tests it", edge)
		}
	}
	for _, edge := range []string{"DIR/edge-entry-before-header.jsonl", "DIR/edge-number-before-header.jsonl", "DIR/corpus-corrupt-crlf-bom.jsonl",
		"DIR/edge-no-message.jsonl", "DIR/edge-null-content.jsonl", "DIR/edge-null-block.jsonl", "DIR/edge-null-block-spaced.jsonl", "DIR/edge-number-name.jsonl"} {
		if listed[edge] {
			t.Errorf("pi-ref lists %s: the fleet no longer tests a file Pi refuses", edge)
		}
	}
}

// TestLsFiltersAndInfoFolder checks --cwd, --since and --limit against the
// full list, and that info DIR gives one object per session with the rows'
// Pi fields.
func TestLsFiltersAndInfoFolder(t *testing.T) {
	dir := t.TempDir()
	writeListFleet(t, dir, 30)
	all := lsJSON(t, dir)
	var sessions []lsFields
	for _, row := range all {
		if row.Path != "" {
			sessions = append(sessions, row)
		}
	}
	var inP3 []lsFields
	for _, row := range sessions {
		if row.Cwd == "/home/dev/p3" {
			inP3 = append(inP3, row)
		}
	}
	if got := lsJSON(t, dir, "--cwd", "/home/dev/p3/"); !equalRows(got, inP3) || len(inP3) == 0 {
		t.Errorf("--cwd /home/dev/p3/: %d rows, want the %d of that cwd", len(got), len(inP3))
	}
	if got := lsJSON(t, dir, "--limit", "5"); !equalRows(got, sessions[:5]) {
		t.Errorf("--limit 5: %+v, want the 5 newest", got)
	}
	since := sessions[9].Modified
	var newer []lsFields
	for _, row := range sessions {
		if row.Modified >= since {
			newer = append(newer, row)
		}
	}
	if got := lsJSON(t, dir, "--since", since); !equalRows(got, newer) || len(newer) < 10 {
		t.Errorf("--since %s: %d rows, want %d", since, len(got), len(newer))
	}
	out := bytes.ReplaceAll(pitoolOut(t, "info", "--json", dir), []byte(dir), []byte("DIR"))
	byPath := map[string]lsFields{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var row lsFields
		if err := dec.Decode(&row); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if row.Path != "" {
			byPath[row.Path] = row
		}
	}
	for _, row := range sessions {
		if !strings.HasPrefix(row.Path, "DIR/edge-") && byPath[row.Path] != row {
			t.Errorf("info %s:\n got %+v\nwant %+v", row.Path, byPath[row.Path], row)
		}
	}
}

func equalRows(a, b []lsFields) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMarshalRowsIsOneArray checks that ls --json's two halves, encoded at
// once, join into the bytes of the array encoded whole, for every count of
// rows up to a few and for rows of each kind (a session, a skipped file).
func TestMarshalRowsIsOneArray(t *testing.T) {
	created := "2026-01-01T00:00:00.000Z"
	var rows []any
	for n := range 6 {
		whole, err := jsonout.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := jsonout.MarshalArray(rows); err != nil || !bytes.Equal(got, whole) {
			t.Errorf("%d rows: %s, %v\nwant %s", n, got, err, whole)
		}
		if n%2 == 0 {
			rows = append(rows, lsRow{Listing: &jsonl.Listing{ID: fmt.Sprint("s", n), Created: &created, FirstMessage: "<a> & \u2028 é"}})
		} else {
			rows = append(rows, runner.SkippedRow{File: fmt.Sprint("f", n), Skipped: "not a session"})
		}
	}
}
