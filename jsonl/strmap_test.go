package jsonl

import (
	"math/rand"
	"strings"
	"testing"
)

// classifyByBytes is classify's definition, one byte at a time.
func classifyByBytes(src []byte) []uint64 {
	masks := make([]uint64, len(src)/blockBytes*masksPerBlock)
	for i, c := range src {
		k, bit := i/blockBytes*masksPerBlock, uint64(1)<<(i%blockBytes)
		if c == '"' {
			masks[k] |= bit
		}
		if c == '\\' {
			masks[k+1] |= bit
		}
		if c < 0x20 {
			masks[k+2] |= bit
		}
	}
	return masks
}

// randomBlocks returns whole blocks biased towards the bytes classify looks for.
func randomBlocks(r *rand.Rand, blocks int) []byte {
	alphabet := []byte{'"', '\\', 0, 0x1f, 0x20, 'a', 0x7f, 0x80, 0xff, '\n', 0xa2, 0xdc}
	b := make([]byte, blocks*blockBytes)
	for i := range b {
		if r.Intn(2) == 0 {
			b[i] = alphabet[r.Intn(len(alphabet))]
		} else {
			b[i] = byte(r.Intn(256))
		}
	}
	return b
}

func TestClassifyMatchesBytes(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		src := randomBlocks(r, 1+r.Intn(4))
		want := classifyByBytes(src)
		for name, classifier := range map[string]func([]byte, []uint64){"classify": classify, "classifyGeneric": classifyGeneric} {
			got := make([]uint64, len(want))
			classifier(src, got)
			for k := range want {
				if got[k] != want[k] {
					t.Fatalf("%s: block %d mask %d = %#x, want %#x\n%q", name, k/masksPerBlock, k%masksPerBlock, got[k], want[k], src)
				}
			}
		}
	}
}

// escapedByBytes flags the bytes that follow an escaping backslash.
func escapedByBytes(b []byte) []bool {
	escaped := make([]bool, len(b)+1)
	for i, c := range b {
		if c == '\\' && !escaped[i] {
			escaped[i+1] = true
		}
	}
	return escaped
}

func TestEscapedBitsAcrossBlocks(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for n := 0; n < 20000; n++ {
		b := make([]byte, blockBytes*(1+r.Intn(4)))
		for i := range b {
			if r.Intn(3) == 0 {
				b[i] = '\\'
			}
		}
		want := escapedByBytes(b)
		masks := classifyByBytes(b)
		var carry uint64
		for k := 0; k < len(masks); k += masksPerBlock {
			got := escapedBits(masks[k+1], &carry)
			for i := 0; i < blockBytes; i++ {
				if pos := k/masksPerBlock*blockBytes + i; (got>>i&1 == 1) != want[pos] {
					t.Fatalf("byte %d of %q: escaped = %v, want %v", pos, b, !want[pos], want[pos])
				}
			}
		}
		if (carry == 1) != want[len(b)] {
			t.Fatalf("carry out of %q = %d", b, carry)
		}
	}
}

func TestStringMapClosingQuote(t *testing.T) {
	long := `"` + strings.Repeat("x", 150) + `\"\\"`
	line := []byte(`{"a":"b\"c","k":` + long + `,"z":""}`)
	var m stringMap
	if !m.build(line) {
		t.Fatalf("build refused %s", line)
	}
	for _, c := range []struct{ open, close int }{{1, 3}, {5, 10}, {16, 16 + len(long) - 1}} {
		if got := m.closingQuote(c.open); got != c.close {
			t.Errorf("closingQuote(%d) = %d, want %d", c.open, got, c.close)
		}
	}
	for _, bad := range []string{`{"a":"x` + "\t" + `"}`, `{"a":"\x"}`, `{"a":"\u12G4"}`, `{"a":"x\`, `{"a":"open}`} {
		if m.build([]byte(bad)) {
			t.Errorf("build accepted %q", bad)
		}
	}
}
