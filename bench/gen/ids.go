package gen

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"time"

	"github.com/pitool/pitool/jsonl"
)

// idSource hands out entry ids: 8 lowercase hex characters, like Pi's generateId. Each id is a
// keyed bijection of a counter, so ids look random yet never repeat (for 2^32 entries) without
// remembering the ids already given.
type idSource struct {
	inKey, outKey uint32
	n             uint32
}

// newIDSource keys the id permutation from the random source.
func newIDSource(rng *rand.Rand) idSource {
	return idSource{inKey: rng.Uint32(), outKey: rng.Uint32()}
}

// next returns a fresh id.
func (s *idSource) next() string {
	x := mix32(s.n^s.inKey) ^ s.outKey
	s.n++
	var raw [4]byte
	raw[0], raw[1], raw[2], raw[3] = byte(x>>24), byte(x>>16), byte(x>>8), byte(x)
	return hex.EncodeToString(raw[:])
}

// mix32 is an invertible integer hash (xorshift-multiply, "lowbias32"): distinct inputs give
// distinct outputs.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// clock is the session's simulated time. It only moves forward, so entry timestamps strictly
// increase.
type clock struct {
	rng *rand.Rand
	now time.Time
}

// advance moves the clock forward by 1 ms up to maxMs ms and returns the new time.
func (c *clock) advance(maxMs int) time.Time {
	c.now = c.now.Add(time.Duration(1+c.rng.IntN(maxMs)) * time.Millisecond)
	return c.now
}

// uuidV7 returns a UUIDv7 string for t with random bits from rng, as Pi names new sessions. The
// random bytes are the low 6 bytes of one draw and the low 4 of the next, little-endian, as the
// generator has always taken them, so that a seed keeps giving the same file.
func uuidV7(t time.Time, rng *rand.Rand) string {
	var r [16]byte
	binary.LittleEndian.PutUint64(r[:8], rng.Uint64())
	binary.LittleEndian.PutUint64(r[8:], rng.Uint64())
	return jsonl.NewSessionID(t, bytes.NewReader(append(r[:6:6], r[8:12]...)))
}
