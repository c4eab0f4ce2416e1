package nightstate

import (
	"os"
	"path/filepath"
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
