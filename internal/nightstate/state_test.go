package nightstate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSavedStateIsRemembered: a saved entry is remembered by the next Open
// while the file's stamp is unchanged, under the same settings only, and a
// path's & and < are written as they are (no HTML escaping).
func TestSavedStateIsRemembered(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "a&b<c>.jsonl")
	if err := os.WriteFile(session, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stamp, err := StampFile(session)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "r.json"+Suffix)
	st, err := Open(path, "s1")
	if err != nil {
		t.Fatal(err)
	}
	st.Keep(Entry{File: session, Stamp: stamp, Action: "not-due", TokensBefore: 7})
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "a&b<c>.jsonl") {
		t.Errorf("the state file escapes the path: %s", data)
	}
	again, _ := Open(path, "s1")
	if e, ok := again.Remembered(session, stamp); !ok || e.TokensBefore != 7 {
		t.Errorf("not remembered: %+v %v", e, ok)
	}
	changed := stamp
	changed.Size++
	if _, ok := again.Remembered(session, changed); ok {
		t.Error("remembered a file whose size changed")
	}
	other, _ := Open(path, "s2")
	if _, ok := other.Remembered(session, stamp); ok {
		t.Error("remembered under other settings")
	}
}

// TestSettled: a file with sub-second times settles after SettleFine, one
// with whole-second times only after Settle.
func TestSettled(t *testing.T) {
	now := time.Unix(1000, 500_000_000)
	fine := Stamp{MtimeNs: now.Add(-50 * time.Millisecond).UnixNano(), CtimeNs: now.Add(-50 * time.Millisecond).UnixNano()}
	if !fine.Settled(now) {
		t.Error("a file changed 50 ms ago with sub-second times is not settled")
	}
	whole := Stamp{MtimeNs: time.Unix(1000, 0).UnixNano(), CtimeNs: time.Unix(1000, 0).UnixNano()}
	if whole.Settled(now) {
		t.Error("a file with whole-second times, changed within the second, is settled")
	}
	if !whole.Settled(now.Add(Settle)) {
		t.Error("a file with whole-second times is not settled a second later")
	}
}

// TestSaveSkipsUnchanged: a run that recorded exactly what the state file
// holds leaves the file as it is (no rewrite: same inode); one that recorded
// another entry, one entry fewer, or ran under other settings writes it.
func TestSaveSkipsUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json"+Suffix)
	a := Entry{File: "/s/a.jsonl", Stamp: Stamp{Size: 1, Ino: 1}, Action: "not-due"}
	b := Entry{File: "/s/b.jsonl", Stamp: Stamp{Size: 2, Ino: 2}, Action: "not-due"}
	save(t, path, "s1", a, b)
	ino := inode(t, path)
	save(t, path, "s1", b, a) // the same entries, in another order
	if inode(t, path) != ino {
		t.Error("an unchanged state was written again")
	}
	grown := b
	grown.Size++
	for _, c := range []struct {
		name     string
		settings string
		entries  []Entry
	}{
		{"a file changed", "s1", []Entry{a, grown}},
		{"a file gone", "s1", []Entry{a}},
		{"other settings", "s2", []Entry{a, grown}},
	} {
		save(t, path, c.settings, c.entries...)
		if now := inode(t, path); now == ino {
			t.Errorf("%s: the state was not written", c.name)
		} else {
			ino = now
		}
		again, _ := Open(path, c.settings)
		if got := len(again.prev); got != len(c.entries) {
			t.Errorf("%s: %d entries read back, want %d", c.name, got, len(c.entries))
		}
	}
}

func save(t *testing.T, path, settings string, entries ...Entry) {
	t.Helper()
	st, err := Open(path, settings)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		st.Keep(e)
	}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
}

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	s, err := StampFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s.Ino
}

// TestSaveNothingNoFile: a run with nothing to remember creates no state
// file; where one was, it empties it (its entries are no longer true).
func TestSaveNothingNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json"+Suffix)
	save(t, path, "s1")
	if _, err := os.Lstat(path); err == nil {
		t.Fatal("a run with nothing to remember created a state file")
	}
	save(t, path, "s1", Entry{File: "/s/a.jsonl", Action: "not-due"})
	save(t, path, "s1")
	if again, _ := Open(path, "s1"); len(again.prev) != 0 {
		t.Errorf("the state file still remembers %d files", len(again.prev))
	}
}

// TestRememberedInAnyOrder: the state file is saved sorted by path, and
// every entry is found whatever order the run asks in (in order, the
// reverse, one path twice, one the file does not hold).
func TestRememberedInAnyOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json"+Suffix)
	var entries []Entry
	for _, name := range []string{"/s/c.jsonl", "/s/a.jsonl", "/s/d.jsonl", "/s/b.jsonl"} {
		entries = append(entries, Entry{File: name, Stamp: Stamp{Size: int64(len(entries)) + 1}, Action: "not-due"})
	}
	save(t, path, "s1", entries...)
	st, err := Open(path, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(st.prev, func(a, b Entry) int { return strings.Compare(a.File, b.File) }) {
		t.Errorf("the state file is not sorted by path: %+v", st.prev)
	}
	asks := append(slices.Clone(st.prev), entries...)
	asks = append(asks, entries[2], Entry{File: "/s/none.jsonl"})
	for _, e := range asks {
		got, ok := st.Remembered(e.File, e.Stamp)
		if want := e.File != "/s/none.jsonl"; ok != want || ok && got != e {
			t.Errorf("Remembered(%s) = %+v, %v; want %v", e.File, got, ok, want)
		}
	}
}
