package jsonl

import (
	"math/rand"
	"strings"
	"testing"
)

// mapByBytes is mapBlocks' definition, one byte at a time: the delimiting
// quotes, the escaped letters u, and the state after src, from the state st.
func mapByBytes(src []byte, st blockState) (delims, unicodeEscapes []uint64, end blockState) {
	delims, unicodeEscapes = make([]uint64, len(src)/blockBytes), make([]uint64, len(src)/blockBytes)
	escapeNext, inside := st.escaped == 1, st.inside != 0
	end.errors, end.unicode = st.errors, st.unicode
	for i, c := range src {
		k, bit := i/blockBytes, uint64(1)<<(i%blockBytes)
		isEscaped := escapeNext
		escapeNext = c == '\\' && !isEscaped
		if isEscaped && c == 'u' {
			unicodeEscapes[k] |= bit
			end.unicode |= bit
		}
		if isEscaped && c != 'u' && strings.IndexByte(`"\\/bfnrt`, c) < 0 {
			end.errors |= bit
		}
		if c == '"' && !isEscaped {
			delims[k] |= bit
			inside = !inside
		}
		if inside && c < 0x20 {
			end.errors |= bit
		}
	}
	if escapeNext {
		end.escaped = 1
	}
	if inside {
		end.inside = ^uint64(0)
	}
	return delims, unicodeEscapes, end
}

// randomBlocks returns whole blocks biased towards the bytes that matter.
func randomBlocks(r *rand.Rand, blocks int) []byte {
	alphabet := []byte("\"\\\x00\x1f a\x7f\x80\xff\n\xa2\xdcubfnrt/\x22\x5c\x62\xe2\xf5\x55\x0f")
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

// TestMapBlocksMatchesBytes checks mapBlocks (AVX2 where the processor has
// it) and mapBlocksGeneric against the byte-by-byte definition, from every
// starting state.
func TestMapBlocksMatchesBytes(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	mappers := map[string]func([]byte, []uint64, []uint64, *blockState){"mapBlocks": mapBlocks, "mapBlocksGeneric": mapBlocksGeneric}
	for n := 0; n < 5000; n++ {
		src := randomBlocks(r, 1+r.Intn(4))
		if n%3 == 0 { // most blocks have no control byte, and take another path
			for i, c := range src {
				if c < 0x20 && r.Intn(8) != 0 {
					src[i] = 'a'
				}
			}
		}
		start := blockState{escaped: uint64(r.Intn(2)), errors: uint64(r.Intn(2)), unicode: uint64(r.Intn(2))}
		if r.Intn(2) == 0 {
			start.inside = ^uint64(0)
		}
		wantDelims, wantUs, wantEnd := mapByBytes(src, start)
		for name, mapper := range mappers {
			delims, us, st := make([]uint64, len(wantDelims)), make([]uint64, len(wantDelims)), start
			mapper(src, delims, us, &st)
			for k := range wantDelims {
				if delims[k] != wantDelims[k] || us[k] != wantUs[k] {
					t.Fatalf("%s from %+v, block %d: delims %#x unicode escapes %#x, want %#x %#x\n%q", name, start, k, delims[k], us[k], wantDelims[k], wantUs[k], src)
				}
			}
			if st != wantEnd {
				t.Fatalf("%s from %+v: end state %+v, want %+v\n%q", name, start, st, wantEnd, src)
			}
		}
	}
}

func TestStringMapClosingQuote(t *testing.T) {
	eachPath(func(path string) {
		long := `"` + strings.Repeat("x", 150) + `\"\\"`
		line := []byte(`{"a":"b\"c","k":` + long + `,"z":""}`)
		var m stringMap
		if !m.build(line) {
			t.Fatalf("%s: build refused %s", path, line)
		}
		for _, c := range []struct{ open, close int }{{1, 3}, {5, 10}, {16, 16 + len(long) - 1}} {
			if got := closingQuote(m.delims, c.open); got != c.close {
				t.Errorf("%s: closingQuote(%d) = %d, want %d", path, c.open, got, c.close)
			}
		}
		for _, bad := range []string{`{"a":"x` + "\t" + `"}`, `{"a":"\x"}`, `{"a":"\u12G4"}`, `{"a":"x\`, `{"a":"\u12"}`} {
			if m.build([]byte(bad)) {
				t.Errorf("%s: build accepted %q", path, bad)
			}
		}
	})
}
