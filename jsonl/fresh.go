package jsonl

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// What Pi writes when it makes something new: the time of an entry or a
// session, the id of an entry or of a session, the header line of a session;
// and the ids pitool gives the entries of a v1 session.

// isoLayout is Date.prototype.toISOString's layout for the years 0 to 9999.
const isoLayout = "2006-01-02T15:04:05.000Z"

// ISOTime formats t as JavaScript's Date.prototype.toISOString does: UTC,
// milliseconds (finer digits are cut, not rounded), a literal Z. A year
// outside 0 to 9999 is written as JavaScript writes it, with a sign and six
// digits ("+010000-01-01T00:00:00.000Z", "-000001-…"). JavaScript refuses
// times more than 8.64e15 ms from the epoch; ISOTime writes them all the same.
func ISOTime(t time.Time) string {
	t = t.UTC()
	y := t.Year()
	if y >= 0 && y <= 9999 {
		return t.Format(isoLayout)
	}
	sign := '+'
	if y < 0 {
		sign, y = '-', -y
	}
	return fmt.Sprintf("%c%06d", sign, y) + t.Format(isoLayout[len("2006"):])
}

// idTries is how many short ids Pi's generateId tries before it gives up on
// a short one.
const idTries = 100

// GenerateID is Pi's generateId: the first 8 characters (lowercase hex) of a
// random UUID that taken does not report, tried 100 times, then a whole
// random UUID. random supplies the UUIDs' bytes, 16 per UUID: crypto/rand
// when nil, a fixed stream for a reproducible id. It must not fail
// (crypto/rand never does); GenerateID panics if it does, as uuid.New does.
func GenerateID(random io.Reader, taken func(id string) bool) string {
	if random == nil {
		random = rand.Reader
	}
	for range idTries {
		if id := newUUID(random)[:8]; !taken(id) {
			return id
		}
	}
	return newUUID(random)
}

func newUUID(random io.Reader) string {
	u, err := uuid.NewRandomFromReader(random)
	if err != nil {
		panic(fmt.Sprintf("jsonl: random source for ids failed: %v", err))
	}
	return u.String()
}

// MigratedID is the id pitool gives entry pos (0 for the first entry after
// the header) of a v1 session whose header id is sessionID: the first 8
// characters (lowercase hex) of the SHA-256 of "sessionID/pos/salt", for the
// first salt from 0 up that gives an id taken does not report. Pi gives
// migrated entries random ids; derived ones make two runs over a file agree.
func MigratedID(sessionID string, pos int, taken func(id string) bool) string {
	prefix := sessionID + "/" + strconv.Itoa(pos) + "/"
	for salt := 0; ; salt++ {
		sum := sha256.Sum256([]byte(prefix + strconv.Itoa(salt)))
		if id := hex.EncodeToString(sum[:4]); !taken(id) {
			return id
		}
	}
}

// NewSessionID is a UUIDv7 as Pi makes one for a new session: the Unix time
// of now in milliseconds (48 bits), version 7, then 74 random bits taken from
// the 10 bytes random supplies (less the 6 version and variant bits):
// crypto/rand when nil, a fixed stream for a reproducible id. It must not fail
// (crypto/rand never does); NewSessionID panics if it does, as uuid.New does.
func NewSessionID(now time.Time, random io.Reader) string {
	if random == nil {
		random = rand.Reader
	}
	var u uuid.UUID
	ms := uint64(now.UnixMilli())
	for k := range 6 {
		u[k] = byte(ms >> (40 - 8*k))
	}
	if _, err := io.ReadFull(random, u[6:]); err != nil {
		panic(fmt.Sprintf("jsonl: random source for session ids failed: %v", err))
	}
	u[6] = u[6]&0x0f | 0x70 // version 7
	u[8] = u[8]&0x3f | 0x80 // variant 10 (RFC 9562)
	return u.String()
}

// AppendHeader appends the header line Pi's newSession writes for a session
// with h's ID, Timestamp, Cwd and ParentSession: type "session", version 3,
// id, timestamp, cwd, then parentSession when not empty, in that order, as
// JSON.stringify writes them. h.Type and h.Version are not read: Pi writes
// only current headers. No newline is appended.
func AppendHeader(dst []byte, h Header) []byte {
	o := ObjectOf("type", QuoteString(TypeSession.String()), "version", AppendInt(nil, CurrentVersion),
		"id", QuoteString(h.ID), "timestamp", QuoteString(h.Timestamp), "cwd", QuoteString(h.Cwd))
	if h.ParentSession != "" {
		o.Set("parentSession", QuoteString(h.ParentSession))
	}
	return o.AppendJSON(dst)
}
