package jsonl

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestISOTime checks ISOTime against what Node 20 prints for
// new Date(ms).toISOString().
func TestISOTime(t *testing.T) {
	for ms, want := range map[int64]string{
		0:                 "1970-01-01T00:00:00.000Z",
		-1:                "1969-12-31T23:59:59.999Z",
		1500000000000:     "2017-07-14T02:40:00.000Z",
		253402300799999:   "9999-12-31T23:59:59.999Z",
		253402300800000:   "+010000-01-01T00:00:00.000Z",
		-62167219200000:   "0000-01-01T00:00:00.000Z",
		-62167219200001:   "-000001-12-31T23:59:59.999Z",
		8640000000000000:  "+275760-09-13T00:00:00.000Z",
		-8640000000000000: "-271821-04-20T00:00:00.000Z",
	} {
		if got := ISOTime(time.UnixMilli(ms)); got != want {
			t.Errorf("ISOTime(%d ms) = %s, want %s", ms, got, want)
		}
	}
	local := time.Date(2026, 1, 2, 3, 4, 5, 999_999_999, time.FixedZone("x", 3600))
	if got, want := ISOTime(local), "2026-01-02T02:04:05.999Z"; got != want {
		t.Errorf("ISOTime(%v) = %s, want %s (UTC, digits past the millisecond cut)", local, got, want)
	}
}

// hashStream is a reproducible source of UUID bytes for tests.
type hashStream struct{ n int }

func (h *hashStream) Read(p []byte) (int, error) {
	sum := sha256.Sum256([]byte{byte(h.n)})
	h.n++
	return copy(p, sum[:]), nil
}

func TestGenerateIDShape(t *testing.T) {
	short := regexp.MustCompile(`^[0-9a-f]{8}$`)
	for range 50 {
		if id := GenerateID(nil, func(string) bool { return false }); !short.MatchString(id) {
			t.Fatalf("GenerateID = %q, want 8 lowercase hex digits", id)
		}
	}
}

func TestGenerateIDSkipsTaken(t *testing.T) {
	first := GenerateID(&hashStream{}, func(string) bool { return false })
	second := GenerateID(&hashStream{}, func(id string) bool { return id == first })
	if first == second || second != GenerateID(&hashStream{n: 1}, func(string) bool { return false }) {
		t.Errorf("ids %s then %s: a taken id must cost one UUID and be skipped", first, second)
	}
}

// TestGenerateIDFallback: after 100 taken short ids Pi writes a whole random
// UUID (version 4).
func TestGenerateIDFallback(t *testing.T) {
	tries := 0
	id := GenerateID(&hashStream{}, func(string) bool { tries++; return true })
	if tries != 100 || !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(id) {
		t.Errorf("after %d tries GenerateID = %q, want a UUIDv4 after 100 tries", tries, id)
	}
}

// TestAppendHeaderLikePi rewrites the header of every committed v3 session
// from its parsed fields and expects Pi's own bytes back.
func TestAppendHeaderLikePi(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/v3/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	for _, f := range files {
		line := firstLine(t, f)
		ix, done, err := IndexFile(f, nil)
		if err != nil || !ix.HasHeader {
			t.Fatalf("%s: no header (%v)", f, err)
		}
		if err := done(); err != nil {
			t.Fatal(err)
		}
		if got := AppendHeader(nil, ix.Header); !bytes.Equal(got, line) {
			t.Errorf("%s:\n got %s\nwant %s", f, got, line)
		}
	}
	h := Header{ID: "x", Timestamp: "t", Cwd: "/c", ParentSession: "/p/s.jsonl"}
	if got, want := string(AppendHeader(nil, h)), `{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/c","parentSession":"/p/s.jsonl"}`; got != want {
		t.Errorf("AppendHeader = %s, want %s", got, want)
	}
}

func firstLine(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(strings.TrimSuffix(line, "\n"))
}

// TestMigratedIDPinned: v1 ids are pinned by goldens and by files users
// already repaired; the first entry of the committed large v1 session keeps
// its id, and a taken id moves to the next salt.
func TestMigratedIDPinned(t *testing.T) {
	const session = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617"
	none := func(string) bool { return false }
	if id := MigratedID(session, 0, none); id != "7b1b1ae6" {
		t.Errorf("MigratedID(%s, 0) = %s, want 7b1b1ae6", session, id)
	}
	sum := sha256.Sum256([]byte(session + "/0/1"))
	salt1 := hex.EncodeToString(sum[:4])
	if id := MigratedID(session, 0, func(id string) bool { return id == "7b1b1ae6" }); id != salt1 {
		t.Errorf("MigratedID with 7b1b1ae6 taken = %s, want %s (salt 1)", id, salt1)
	}
}

// TestNewSessionIDPinned: a fixed random stream gives the id repair writes
// for testdata/corpus/corrupt/missing-header.jsonl, byte for byte.
func TestNewSessionIDPinned(t *testing.T) {
	const ts = "2026-12-01T00:07:27.715Z"
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("missing-header/" + ts))
	if id := NewSessionID(at, bytes.NewReader(sum[:10])); id != "01a22eed-84e3-7a78-8724-b9a2bf965a2a" {
		t.Errorf("NewSessionID = %s, want 01a22eed-84e3-7a78-8724-b9a2bf965a2a", id)
	}
}

// TestNewSessionIDRandom: with crypto/rand the ids are UUIDv7 carrying the
// given millisecond, and differ.
func TestNewSessionIDRandom(t *testing.T) {
	at := time.UnixMilli(1764547647715)
	a, b := NewSessionID(at, nil), NewSessionID(at, nil)
	for _, id := range []string{a, b} {
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 {
			t.Fatalf("NewSessionID = %q, want a UUIDv7", id)
		}
		if sec, nsec := u.Time().UnixTime(); time.Unix(sec, nsec).UnixMilli() != at.UnixMilli() {
			t.Errorf("NewSessionID = %s carries %d, want %d", id, time.Unix(sec, nsec).UnixMilli(), at.UnixMilli())
		}
	}
	if a == b {
		t.Errorf("two NewSessionID calls gave %s twice", a)
	}
}

func TestNewSessionIDShortRandomPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewSessionID with 9 random bytes did not panic")
		}
	}()
	NewSessionID(time.Now(), bytes.NewReader(make([]byte, 9)))
}
