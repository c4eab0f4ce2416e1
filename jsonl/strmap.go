package jsonl

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A session line is mostly string content, dense with escapes: in a typical
// tool result a quote or a backslash comes every 14 bytes or so, which makes
// a byte-by-byte string scanner branch on almost every word. The skimmer
// therefore maps a line's strings in bulk first, 64 bytes at a time, the way
// simdjson's first stage does: mapBlocks finds the quotes, backslashes and
// control bytes of each block (with AVX2 on amd64), and from them, without a
// branch per byte, which bytes are escaped, which quotes open or close a
// string, whether a control byte lies inside one, and whether every escape
// is valid (only \u escapes, which are rare, are checked afterwards, one by
// one). The parser then jumps from a string's opening quote straight to its
// closing one.
//
// The map assumes the line is well formed: if it is not, the parser rejects
// it on its own, since every byte outside a string passes through the parser.
// If it is, the quotes the map finds are exactly the string delimiters, so a
// control byte inside a string or a bad escape, which the map checks in bulk,
// is a real error.

const (
	blockBytes = 64
	oddBits    = 0xAAAAAAAAAAAAAAAA
)

// blankBlock pads the last block of a line: spaces are neither quotes,
// backslashes nor control bytes.
var blankBlock = [blockBytes]byte(bytes.Repeat([]byte{' '}, blockBytes))

// stringMap records which quotes of a line delimit strings.
type stringMap struct {
	delims         []uint64 // per block: the quotes that open or close a string
	unicodeEscapes []uint64 // per block: the letters u that follow an escaping backslash
	unicode        bool     // some string holds a \u escape
	pad            [blockBytes]byte
}

// blockState is what mapBlocks carries from one block to the next.
type blockState struct {
	escaped uint64 // 1: the previous block ended on an escaping backslash
	inside  uint64 // all ones: the previous block ended inside a string
	errors  uint64 // control bytes inside strings and bad escapes found so far
	unicode uint64 // the letters u after an escaping backslash found so far, or-ed
}

// build maps the strings of b. It returns false when a string holds a raw
// control byte or an invalid escape, as JSON.parse would refuse, or when the
// last string is not closed.
func (m *stringMap) build(b []byte) bool {
	st, ok := m.mapStrings(b)
	return ok && st.inside == 0
}

// buildWindow maps the strings of b, whose last line may be cut anywhere. It
// returns false when a string holds a raw control byte or an invalid escape
// (an escape cut at the end counts as invalid).
func (m *stringMap) buildWindow(b []byte) bool {
	_, ok := m.mapStrings(b)
	return ok
}

// mapStrings maps the strings of b and reports whether it found no control
// byte inside a string and no invalid escape; st is the state after b.
func (m *stringMap) mapStrings(b []byte) (st blockState, ok bool) {
	blocks := (len(b) + blockBytes - 1) / blockBytes
	if cap(m.delims) < blocks {
		m.delims, m.unicodeEscapes = make([]uint64, blocks), make([]uint64, blocks)
	}
	m.delims, m.unicodeEscapes = m.delims[:blocks], m.unicodeEscapes[:blocks]
	whole := len(b) / blockBytes
	mapBlocks(b[:whole*blockBytes], m.delims, m.unicodeEscapes, &st)
	if tail := b[whole*blockBytes:]; len(tail) > 0 {
		n := copy(m.pad[:], tail)
		copy(m.pad[n:], blankBlock[n:])
		mapBlocks(m.pad[:], m.delims[whole:], m.unicodeEscapes[whole:], &st)
	}
	m.unicode = st.unicode != 0
	if st.errors != 0 {
		return st, false
	}
	if !m.unicode {
		return st, true
	}
	for k, us := range m.unicodeEscapes {
		if us != 0 && !validUnicodeEscapes(b, k*blockBytes, us) {
			return st, false
		}
	}
	return st, true
}

// closingQuote returns the position of the first delimiting quote after i
// in a map's delims, or -1 when there is none. The parser calls it for every
// string, with the slice in a register.
func closingQuote(delims []uint64, i int) int {
	u := uint(i) + 1
	k := u / blockBytes
	if k >= uint(len(delims)) {
		return -1
	}
	if w := delims[k] >> (u % blockBytes); w != 0 {
		return int(u) + bits.TrailingZeros64(w)
	}
	for k++; k < uint(len(delims)); k++ {
		if w := delims[k]; w != 0 {
			return int(k*blockBytes) + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// validUnicodeEscapes checks the letters u of block base (of b) that follow
// a backslash: each must be followed by four hex digits.
func validUnicodeEscapes(b []byte, base int, us uint64) bool {
	for ; us != 0; us &= us - 1 {
		if i := base + bits.TrailingZeros64(us); i >= len(b) || escapeLen(b[i-1:]) == 0 {
			return false
		}
	}
	return true
}

// mapBlocksGeneric is mapBlocks in portable Go. For each 64-byte block of src
// (whose length is a multiple of 64) it writes the string delimiters and the
// escaped letters u, and it updates st.
func mapBlocksGeneric(src []byte, delims, unicodeEscapes []uint64, st *blockState) {
	for k := range len(src) / blockBytes {
		c := classifyBlock(src[k*blockBytes : (k+1)*blockBytes])
		escaped := escapedBits(c.backslashes, &st.escaped)
		d := c.quotes &^ escaped
		inside := prefixXor(d) ^ st.inside
		st.inside = uint64(int64(inside) >> 63)
		st.errors |= c.controls&inside | escaped&^(c.simpleEscapes|c.us)
		delims[k], unicodeEscapes[k] = d, escaped&c.us
		st.unicode |= escaped & c.us
	}
}

// escapedBits returns the bytes of a block that follow an escaping backslash,
// given its backslashes; carry is 1 when the previous block ended on one. It
// is simdjson's branchless escape scanner: a run of backslashes escapes the
// byte after it when the run has odd length.
func escapedBits(backslashes uint64, carry *uint64) uint64 {
	potential := backslashes &^ *carry
	codes := ((potential<<1 | oddBits) - potential) ^ oddBits
	escaped := codes ^ (backslashes | *carry)
	*carry = (codes & backslashes) >> 63
	return escaped
}

// prefixXor sets each bit to the parity of the bits at or below it: from a
// block's delimiting quotes, the bytes inside strings (opening quote
// included, closing quote not).
func prefixXor(x uint64) uint64 {
	x ^= x << 1
	x ^= x << 2
	x ^= x << 4
	x ^= x << 8
	x ^= x << 16
	x ^= x << 32
	return x
}

// blockClasses holds the bits of a block's bytes of each class.
type blockClasses struct {
	quotes, backslashes, controls uint64
	simpleEscapes                 uint64 // " \ / b f n r t: they complete a two-byte escape
	us                            uint64 // letters u
}

// classifyBlock finds the classes of a 64-byte block, eight bytes at a time.
func classifyBlock(block []byte) (c blockClasses) {
	for w := 0; w < blockBytes; w += 8 {
		x := binary.LittleEndian.Uint64(block[w:])
		c.quotes |= bytesEqual(x, '"') << w
		c.backslashes |= bytesEqual(x, '\\') << w
		c.controls |= gatherHighBits(zeroBytes(x&(ones*0xE0))) << w
		c.us |= bytesEqual(x, 'u') << w
		for _, e := range []byte(`"\\/bfnrt`) {
			c.simpleEscapes |= bytesEqual(x, e) << w
		}
	}
	return c
}

// bytesEqual returns one bit per byte of x, set where the byte is b.
func bytesEqual(x uint64, b byte) uint64 {
	return gatherHighBits(zeroBytes(x ^ ones*uint64(b)))
}

// zeroBytes sets the high bit of exactly the zero bytes of x.
func zeroBytes(x uint64) uint64 {
	const lows = ones * 0x7F
	return ^((x&lows + lows) | x | lows)
}

// gatherHighBits packs the high bit of each byte of x into the low 8 bits.
func gatherHighBits(x uint64) uint64 {
	return (x >> 7) * 0x0102040810204080 >> 56
}
