package stats

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// indexed opens a session file for a test.
func indexed(t testing.TB, path string) *jsonl.Index {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeFn() })
	return ix
}

// writeFile writes a session with write.
func writeFile(t testing.TB, path string, write func(w *bytes.Buffer) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// header is a fixed header for a copy of src made at t, so that the files
// (and the goldens of Pi's figures for them) do not change between runs.
func header(t testing.TB, ix *jsonl.Index, src string, id string, at time.Time) exporter.NewHeader {
	t.Helper()
	cwd, err := exporter.SourceCwd(ix)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(src)
	return exporter.NewHeader{ID: id, Time: at, Cwd: cwd, ParentSession: abs}
}

// cloneFile writes pitool clone of src at its active leaf (leaf < 0) or at
// entry leaf.
func cloneFile(t testing.TB, src, dst, id string, at time.Time, leaf int) {
	t.Helper()
	ix := indexed(t, src)
	if leaf < 0 {
		leaf = ix.ActiveLeaf()
	}
	writeFile(t, dst, func(w *bytes.Buffer) error {
		_, err := exporter.Clone(w, ix, leaf, header(t, ix, src, id, at))
		return err
	})
}

// userMessages lists the ids of the user messages of a file, in file order.
func userMessages(t testing.TB, ix *jsonl.Index) []string {
	t.Helper()
	var ids []string
	for i := 0; i < ix.Len(); i++ {
		if ix.Type(i) != jsonl.TypeMessage {
			continue
		}
		e, err := ix.Decode(i)
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := e.Message(); m.String("role") == jsonl.RoleUser && e.ID != "" {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// forkFile writes pitool fork of src before its user message userID.
func forkFile(t testing.TB, src, dst, id string, at time.Time, userID string) {
	t.Helper()
	ix := indexed(t, src)
	leaf, err := exporter.ForkPoint(ix, userID)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, func(w *bytes.Buffer) error {
		_, err := exporter.Fork(w, ix, leaf, header(t, ix, src, id, at))
		return err
	})
}

// copyFile is cp.
func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// lastID is the id of a file's last entry.
func lastID(t testing.TB, path string) string {
	t.Helper()
	ix := indexed(t, path)
	return ix.ID(ix.ActiveLeaf())
}

// newTurns appends a user message and a billed answer after the last entry
// of path, as Pi continuing the session would, and returns the answer's
// usage: input, output, cacheRead, cacheWrite, cost.
func newTurns(t testing.TB, path, tag string, at time.Time, usage [5]float64) {
	t.Helper()
	parent := lastID(t, path)
	ms := at.UnixMilli()
	lines := fmt.Sprintf(`{"type":"message","id":"%su","parentId":%q,"timestamp":%q,"message":{"role":"user","content":"and now %s","timestamp":%d}}`+"\n",
		tag, parent, jsonl.ISOTime(at), tag, ms)
	lines += fmt.Sprintf(`{"type":"message","id":"%sa","parentId":"%su","timestamp":%q,"message":{"role":"assistant","content":[{"type":"text","text":"done %s"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-x","usage":{"input":%v,"output":%v,"cacheRead":%v,"cacheWrite":%v,"totalTokens":%v,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":%v}},"stopReason":"stop","timestamp":%d}}`+"\n",
		tag, tag, jsonl.ISOTime(at.Add(time.Second)), tag, usage[0], usage[1], usage[2], usage[3], usage[0]+usage[1]+usage[2]+usage[3], usage[4], ms+1000)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
}

// collect totals files, failing the test on a file that cannot be read.
func collect(t testing.TB, files []string, opts Options) *Report {
	t.Helper()
	rep, failed := Collect(context.Background(), files, opts)
	if len(failed) > 0 {
		t.Fatalf("unreadable: %v", failed)
	}
	return rep
}

// sameTotals compares tokens and entries exactly and costs summed in
// another order closely.
func sameTotals(a, b Row) bool {
	return a.Input == b.Input && a.Output == b.Output && a.CacheRead == b.CacheRead && a.CacheWrite == b.CacheWrite &&
		a.TotalTokens == b.TotalTokens && a.Entries == b.Entries && math.Abs(a.Cost-b.Cost) <= 1e-9*math.Max(1, math.Abs(b.Cost))
}

// infoTotals is what pitool info says a file bills, as a Row.
func infoTotals(t testing.TB, path string) Row {
	t.Helper()
	ix := indexed(t, path)
	in, err := ix.Info(path, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	tk := in.Tokens
	return Row{Input: tk.Input, Output: tk.Output, CacheRead: tk.CacheRead, CacheWrite: tk.CacheWrite,
		TotalTokens: tk.Input + tk.Output + tk.CacheRead + tk.CacheWrite, Cost: in.Cost}
}

// copiesFolder builds the folder of TestStatsCopiesCountOnce in dir: a
// session (v3/agent-run.jsonl, 52,857 tokens), a clone of it, a clone of the
// clone, a fork of it before its fourth user message with one new billed
// turn, and a plain copy. It returns the files and the fork's new usage.
func copiesFolder(t testing.TB, dir string) (files map[string]string, forkUsage [5]float64) {
	src := filepath.Join(dir, "session.jsonl")
	copyFile(t, testref.Corpus("v3/agent-run.jsonl"), src)
	day := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	files = map[string]string{
		"session": src,
		"clone":   filepath.Join(dir, "clone.jsonl"),
		"clone2":  filepath.Join(dir, "clone-of-clone.jsonl"),
		"fork":    filepath.Join(dir, "fork.jsonl"),
		"copy":    filepath.Join(dir, "a-plain-copy.jsonl"),
	}
	cloneFile(t, src, files["clone"], "019af000-0000-7000-8000-000000000001", day, -1)
	cloneFile(t, files["clone"], files["clone2"], "019af000-0000-7000-8000-000000000002", day.Add(time.Hour), -1)
	users := userMessages(t, indexed(t, src))
	if len(users) < 4 {
		t.Fatalf("%d user messages", len(users))
	}
	forkFile(t, src, files["fork"], "019af000-0000-7000-8000-000000000003", day.Add(2*time.Hour), users[3])
	forkUsage = [5]float64{1200, 345, 6000, 700, 0.0421}
	newTurns(t, files["fork"], "f0000001", day.Add(3*time.Hour), forkUsage)
	copyFile(t, src, files["copy"])
	return files, forkUsage
}

// TestStatsCopiesCountOnce: over a session, two clones, a fork with a new
// turn and a plain copy, stats counts the session's own total plus the
// fork's new turn, whatever the grouping; --per-file counts each file's own,
// which is what pitool info and Pi's /session (pi-ref usage) say of it.
func TestStatsCopiesCountOnce(t *testing.T) {
	dir := t.TempDir()
	files, fu := copiesFolder(t, dir)
	var paths []string
	for _, p := range files {
		paths = append(paths, p)
	}
	want := infoTotals(t, files["session"])
	if want.TotalTokens != 52857 {
		t.Fatalf("the session bills %v tokens, want 52,857", want.TotalTokens)
	}
	want.Input += fu[0]
	want.Output += fu[1]
	want.CacheRead += fu[2]
	want.CacheWrite += fu[3]
	want.TotalTokens += fu[0] + fu[1] + fu[2] + fu[3]
	want.Cost += fu[4]

	total := everyGroupingSums(t, paths, false)
	if total.TotalTokens != want.TotalTokens || total.Input != want.Input || total.Output != want.Output ||
		total.CacheRead != want.CacheRead || total.CacheWrite != want.CacheWrite || math.Abs(total.Cost-want.Cost) > 1e-9 {
		t.Errorf("stats counts %+v, want the session's own plus the fork's new turn: %+v", total, want)
	}

	// Each entry is counted under the first session that held it: the plain
	// copy, whose header is the session's and whose path sorts first; the
	// clones hold nothing new; the fork only its new turn.
	rep := collect(t, paths, Options{By: BySession})
	rows := map[string]Row{}
	for _, r := range rep.Rows {
		rows[r.Key] = r
	}
	if r := rows[files["fork"]]; r.TotalTokens != fu[0]+fu[1]+fu[2]+fu[3] || r.Entries != 1 {
		t.Errorf("the fork's row is %+v, want its new turn only", r)
	}
	for _, k := range []string{"session", "clone", "clone2"} {
		if r, ok := rows[files[k]]; ok {
			t.Errorf("%s has a row %+v; the plain copy sorts first and holds all of it", k, r)
		}
	}
	if r := rows[files["copy"]]; r.TotalTokens != 52857 {
		t.Errorf("the plain copy's row is %+v, want the session's 52,857 tokens", r)
	}
	// The order does not depend on how the files were listed.
	for i := range 5 {
		rand.New(rand.NewPCG(uint64(i), 1)).Shuffle(len(paths), func(a, b int) { paths[a], paths[b] = paths[b], paths[a] })
		again := collect(t, paths, Options{By: BySession, Workers: 1 + i})
		if fmt.Sprint(again.Rows) != fmt.Sprint(rep.Rows) {
			t.Fatalf("listed as %v: rows %v, before %v", paths, again.Rows, rep.Rows)
		}
	}

	// --per-file: the sum of pitool info over the files, each of which is
	// Pi's /session total.
	perFile := everyGroupingSums(t, paths, true)
	var sum Row
	for name, p := range files {
		in := infoTotals(t, p)
		var pi []struct {
			Key    string  `json:"key"`
			Tokens float64 `json:"tokens"`
			Cost   float64 `json:"cost"`
		}
		golden := filepath.Join("testdata", "golden", "copies-"+name+".usage.json")
		if err := json.Unmarshal(testref.Golden(t, golden, "usage", p), &pi); err != nil {
			t.Fatal(err)
		}
		var piTokens, piCost float64
		for _, g := range pi {
			piTokens, piCost = piTokens+g.Tokens, piCost+g.Cost
		}
		if in.TotalTokens != piTokens || math.Abs(in.Cost-piCost) > 1e-9 {
			t.Errorf("%s: info %v tokens $%v, Pi's /session %v tokens $%v", name, in.TotalTokens, in.Cost, piTokens, piCost)
		}
		sum.merge(&in)
	}
	if perFile.TotalTokens != sum.TotalTokens || math.Abs(perFile.Cost-sum.Cost) > 1e-9 {
		t.Errorf("--per-file counts %+v, the files' info sums to %+v", perFile, sum)
	}
	if perFile.TotalTokens <= total.TotalTokens {
		t.Errorf("--per-file %v tokens, once %v: the copies should count again per file", perFile.TotalTokens, total.TotalTokens)
	}
}

// TestStatsPiCloneCountsOnce: the file Pi's own /clone writes (pi-ref clone,
// JSON.stringify of every entry with a new header) holds entries that stats
// recognises: the session and its clone count as the session alone.
func TestStatsPiCloneCountsOnce(t *testing.T) {
	for _, rel := range []string{"v3/agent-run.jsonl", "v3/branched.jsonl"} {
		t.Run(rel, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "session.jsonl")
			copyFile(t, testref.Corpus(rel), src)
			golden := filepath.Join("testdata", "golden", filepath.Base(rel[:len(rel)-len(".jsonl")])+".piclone.json")
			var lines []json.RawMessage
			if err := json.Unmarshal(testref.Golden(t, golden, "clone", testref.Corpus(rel)), &lines); err != nil {
				t.Fatal(err)
			}
			// pi-ref's clock is fixed at 2026-01-01; a clone is made after
			// its source, so its header time is set to a later day.
			var h map[string]any
			if err := json.Unmarshal(lines[0], &h); err != nil || h["type"] != "session" {
				t.Fatalf("pi-ref clone's first line: %s", lines[0])
			}
			h["timestamp"] = "2027-01-01T00:00:00.000Z"
			lines[0], _ = json.Marshal(h)
			var b bytes.Buffer
			for _, l := range lines {
				b.Write(l)
				b.WriteByte('\n')
			}
			clone := filepath.Join(dir, "pi-clone.jsonl")
			if err := os.WriteFile(clone, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			own := infoTotals(t, src)
			rep := collect(t, []string{clone, src}, Options{By: BySession})
			if rep.Total.TotalTokens != own.TotalTokens || rep.Repeated == 0 {
				t.Errorf("session and Pi's clone: %+v (%d repeated), the session alone %+v", rep.Total, rep.Repeated, own)
			}
			if len(rep.Rows) != 1 || rep.Rows[0].Key != src {
				t.Errorf("rows %+v: want the session's only (its header is older than the clone's)", rep.Rows)
			}
		})
	}
}

// TestStatsTwinsAreNotMerged: the two answers of v3/branched.jsonl that share
// a timestamp and a token total (ccusage's key, which merges them) are two
// entries, counted both, in the file and beside a copy of it.
func TestStatsTwinsAreNotMerged(t *testing.T) {
	src := testref.Corpus("v3/branched.jsonl")
	ix := indexed(t, src)
	byKey := map[string][]int{}
	err := ix.Charges(func(i int, c jsonl.Charge) error {
		u := c.Usage
		k := fmt.Sprintf("%s:%v", c.Timestamp, u.Input+u.Output+u.CacheRead+u.CacheWrite)
		byKey[k] = append(byKey[k], i)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	twins := 0
	for _, is := range byKey {
		if len(is) < 2 {
			continue
		}
		twins++
		a, _, _ := identityOf(ix, is[0], nil)
		b, _, _ := identityOf(ix, is[1], nil)
		if a == b {
			t.Errorf("entries %d and %d share an identity", is[0], is[1])
		}
	}
	if twins == 0 {
		t.Fatal("no two answers share a timestamp and a token total: the test proves nothing")
	}
	dir := t.TempDir()
	cp := filepath.Join(dir, "copy.jsonl")
	copyFile(t, src, cp)
	once := collect(t, []string{src, cp}, Options{})
	perFile := collect(t, []string{src}, Options{PerFile: true})
	if !sameTotals(once.Total, perFile.Total) {
		t.Errorf("with a copy: %+v; the file alone: %+v", once.Total, perFile.Total)
	}
}

// TestStatsCopiesNeverChangeTheTotal is the property: over sessions of the
// bench generator, with answers that share a timestamp and a token total
// planted across them, any number of clones (at any entry), forks (before
// any user message) and plain copies, of the sessions or of their copies,
// leaves the folder's total as it was without them, and the planted twins
// are counted.
func TestStatsCopiesNeverChangeTheTotal(t *testing.T) {
	rounds := 12
	if testing.Short() {
		rounds = 4
	}
	for seed := uint64(1); seed <= uint64(rounds); seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { copiesProperty(t, seed) })
	}
}

func copiesProperty(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 26))
	dir := t.TempDir()
	var files []string
	for s := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", s))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		opts := gen.Options{Seed: seed*10 + uint64(s), Entries: 60 + rng.IntN(80), BranchEvery: 25, CompactionEvery: 40,
			Timestamp: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(3)) * time.Hour)}
		if _, err := gen.Write(f, opts); err != nil {
			t.Fatal(err)
		}
		f.Close()
		files = append(files, p)
	}
	twins := plantTwin(t, files[0], files[1]) + plantTwin(t, files[2], files[2])
	base := collect(t, files, Options{})
	own := collect(t, files, Options{PerFile: true})
	if !sameTotals(base.Total, own.Total) || base.Repeated != 0 {
		t.Fatalf("without copies: %+v (%d repeated), file by file %+v: the twins were merged", base.Total, base.Repeated, own.Total)
	}
	if twins != 2 {
		t.Fatalf("%d twins planted", twins)
	}
	all := append([]string(nil), files...)
	copies := 1 + rng.IntN(8)
	at := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	for c := range copies {
		src := all[rng.IntN(len(all))]
		dst := filepath.Join(dir, fmt.Sprintf("copy%02d.jsonl", c))
		at = at.Add(time.Minute)
		id := fmt.Sprintf("019b0000-0000-7000-8000-%012d", c)
		switch rng.IntN(3) {
		case 0:
			ix := indexed(t, src)
			cloneFile(t, src, dst, id, at, rng.IntN(ix.Len()))
		case 1:
			users := userMessages(t, indexed(t, src))
			if len(users) == 0 {
				copyFile(t, src, dst)
				break
			}
			forkFile(t, src, dst, id, at, users[rng.IntN(len(users))])
		default:
			copyFile(t, src, dst)
		}
		all = append(all, dst)
		rep := collect(t, all, Options{By: Groupings[rng.IntN(len(Groupings))], Workers: 1 + rng.IntN(4)})
		if !sameTotals(rep.Total, base.Total) {
			t.Fatalf("with %d copies: %+v, without %+v", c+1, rep.Total, base.Total)
		}
		// What is left out is exactly what the copies hold again.
		each := collect(t, all, Options{PerFile: true})
		if rep.Repeated != each.Total.Entries-base.Total.Entries {
			t.Fatalf("with %d copies: %d repeated, the files hold %d entries more", c+1, rep.Repeated, each.Total.Entries-base.Total.Entries)
		}
	}
}

// plantTwin appends to dst an answer that shares the timestamp and the usage
// of an answer of src, with its own id and text, as two answers of two
// branches or sessions may; it returns 1.
func plantTwin(t *testing.T, src, dst string) int {
	t.Helper()
	ix := indexed(t, src)
	var orig map[string]any
	for i := ix.Len() - 1; i >= 0 && orig == nil; i-- {
		e, err := ix.Decode(i)
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := e.Message(); m.String("role") == jsonl.RoleAssistant && m.Has("usage") {
			if err := json.Unmarshal(e.Raw, &orig); err != nil {
				t.Fatal(err)
			}
		}
	}
	if orig == nil {
		t.Fatalf("%s has no answer", src)
	}
	orig["id"] = "7w1n" + fmt.Sprint(len(src)%10) + "abc"
	orig["parentId"] = lastID(t, dst)
	msg := orig["message"].(map[string]any)
	msg["content"] = []any{map[string]any{"type": "text", "text": "another answer, same time and tokens"}}
	b, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(dst, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	return 1
}

// TestStatsFirstOrder: the first session is the one whose header is
// earliest, read in gzip and zstd files too, then the path; a file without a
// header comes last.
func TestStatsFirstOrder(t *testing.T) {
	dir := t.TempDir()
	head := func(ts string) string {
		return `{"type":"session","version":3,"id":"x","timestamp":"` + ts + `","cwd":"/p"}` + "\n"
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(head("2026-01-02T00:00:00.000Z")))
	zw.Close()
	enc, _ := zstd.NewWriter(nil)
	zs := enc.EncodeAll([]byte("\n"+head("2026-01-01T00:00:00.000+01:00")), nil)
	files := []string{
		write("a-headless.jsonl", []byte(`{"type":"message","id":"m","parentId":null,"timestamp":"2020-01-01T00:00:00.000Z","message":{"role":"user","content":"x"}}`+"\n")),
		write("b-late.jsonl", []byte(head("2026-01-03T00:00:00.000Z"))),
		write("c.jsonl.gz", gz.Bytes()),
		write("d.jsonl.zst", zs),
		write("e-late.jsonl", []byte(head("2026-01-03T00:00:00.000Z"))),
	}
	got := firstOrder(files)
	want := []string{files[3], files[2], files[1], files[4], files[0]}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
