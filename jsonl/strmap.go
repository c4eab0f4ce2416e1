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
// one). The portable version, without vector compares, looks each escaped
// byte up in a table rather than testing them in bulk. The parser then jumps
// from a string's opening quote straight to its closing one.
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

// build maps the strings of b, whose last string may be cut anywhere (the
// parser finds a string that does not close on its own). It returns false
// when a string holds a raw control byte or an invalid escape, as JSON.parse
// would refuse (an escape cut at the end counts as invalid): firstError then
// says where.
func (m *stringMap) build(b []byte) bool {
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
		if unicodeEscapeError(b, base+bits.TrailingZeros64(us)) >= 0 {
			return false
		}
	}
	return true
}

// unicodeEscapeError returns the offset of the first of the four bytes after
// the escaped letter u at b[u] that is not a hex digit (len(b) when b ends
// first), or -1 when the four are.
func unicodeEscapeError(b []byte, u int) int {
	for k := u + 1; k <= u+4; k++ {
		if k >= len(b) || !isHex(b[k]) {
			return k
		}
	}
	return -1
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// firstError returns the offset of the first byte of a string of b that
// JSON.parse refuses, a raw control byte or the byte that breaks an escape,
// or -1 when there is none; len(b) for an escape cut by the end. b must be
// read as the parser reads it up to there, which is what the map assumes.
// It maps b again one block at a time, so it is for lines build refused.
func (m *stringMap) firstError(b []byte) int {
	first := -1
	var st blockState
	var block [blockBytes]byte
	var delims, us [1]uint64
	for base := 0; base < len(b) && (first < 0 || first >= base); base += blockBytes {
		n := copy(block[:], b[base:])
		copy(block[n:], blankBlock[n:])
		st.errors = 0
		mapBlocks(block[:], delims[:], us[:], &st)
		if st.errors != 0 {
			first = earliest(first, base+bits.TrailingZeros64(st.errors))
		}
		for u := us[0]; u != 0; u &= u - 1 {
			if e := unicodeEscapeError(b, base+bits.TrailingZeros64(u)); e >= 0 {
				first = earliest(first, e)
			}
		}
	}
	return min(first, len(b))
}

// earliest returns the lesser of two offsets, -1 standing for none.
func earliest(a, b int) int {
	if a < 0 || b < a {
		return b
	}
	return a
}

// mapBlocksGeneric is mapBlocks in portable Go. For each 64-byte block of src
// (whose length is a multiple of 64) it writes the string delimiters and the
// escaped letters u, and it updates st.
func mapBlocksGeneric(src []byte, delims, unicodeEscapes []uint64, st *blockState) {
	for k := range len(src) / blockBytes {
		block := (*[blockBytes]byte)(src[k*blockBytes:])
		quotes, backslashes, controls := classifyBlock(block)
		escaped := escapedBits(backslashes, &st.escaped)
		d := quotes &^ escaped
		inside := prefixXor(d) ^ st.inside
		st.inside = uint64(int64(inside) >> 63)
		us, invalid := escapes(block, escaped)
		st.errors |= controls&inside | invalid
		delims[k], unicodeEscapes[k] = d, us
		st.unicode |= us
	}
}

// escapes returns, of the escaped bytes of a block, the letters u and those
// that complete no escape. Most blocks of session text have a few escapes,
// so they are looked up one by one.
func escapes(block *[blockBytes]byte, escaped uint64) (us, invalid uint64) {
	for ; escaped != 0; escaped &= escaped - 1 {
		n := bits.TrailingZeros64(escaped)
		class := escapeClass[block[n]]
		us |= uint64(class&1) << n
		invalid |= uint64(class>>1) << n
	}
	return us, invalid
}

// escapeClass tells, for each byte after an escaping backslash, whether it
// is the letter u (bit 0) or does not complete an escape (bit 1).
var escapeClass = func() (t [256]byte) {
	for c := range t {
		t[c] = 2
	}
	for _, c := range []byte(`"\/bfnrt`) {
		t[c] = 0
	}
	t['u'] = 1
	return t
}()

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

// classifyBlock finds the quotes, backslashes and control bytes of a
// 64-byte block. It tests eight bytes at a time, and gathers the results
// of the eight words of the block by shifts and a bit transpose. Control
// bytes are rare in session text, so their bits are gathered only in a
// block that has some.
func classifyBlock(block *[blockBytes]byte) (quotes, backslashes, controls uint64) {
	q0, b0, l0 := wordClasses(block, 0)
	q1, b1, l1 := wordClasses(block, 1)
	q2, b2, l2 := wordClasses(block, 2)
	q3, b3, l3 := wordClasses(block, 3)
	q4, b4, l4 := wordClasses(block, 4)
	q5, b5, l5 := wordClasses(block, 5)
	q6, b6, l6 := wordClasses(block, 6)
	q7, b7, l7 := wordClasses(block, 7)
	notQuotes := q0>>7 | q1>>6 | q2>>5 | q3>>4 | q4>>3 | q5>>2 | q6>>1 | q7
	notBackslashes := b0>>7 | b1>>6 | b2>>5 | b3>>4 | b4>>3 | b5>>2 | b6>>1 | b7
	quotes, backslashes = ^transposeBits(notQuotes), ^transposeBits(notBackslashes)
	if (l0|l1|l2|l3|l4|l5|l6|l7)&highs != 0 {
		controls = controlBytes(block)
	}
	return quotes, backslashes, controls
}

// wordClasses tests the eight bytes of word w of a block. Its results have
// a bit per byte, the byte's high bit: notQuote and notBackslash set on the
// bytes that are not quotes and not backslashes, low on the first control
// byte, if any (and maybe on bytes after it).
func wordClasses(block *[blockBytes]byte, w int) (notQuote, notBackslash, low uint64) {
	x := binary.LittleEndian.Uint64(block[8*w:])
	return nonzeroBytes(x ^ ones*'"'), nonzeroBytes(x ^ ones*'\\'), (x - ones*0x20) &^ x
}

// controlBytes returns the bytes of a block below 0x20.
func controlBytes(block *[blockBytes]byte) (controls uint64) {
	for w := 0; w < blockBytes; w += 8 {
		x := binary.LittleEndian.Uint64(block[w:])
		controls |= gatherHighBits(zeroBytes(x&(ones*0xE0))) << w
	}
	return controls
}

// nonzeroBytes sets the high bit of exactly the bytes of x that are not zero.
func nonzeroBytes(x uint64) uint64 {
	const lows = ones * 0x7F
	return (x&lows + lows | x) & highs
}

// transposeBits transposes x as an 8×8 matrix of bits: bit 8r+c goes to bit
// 8c+r. classifyBlock gathers at bit w of byte b the result for byte b of
// word w, and this puts it at bit 8w+b, the byte's place in the block.
func transposeBits(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00AA00AA00AA00AA
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000CCCC0000CCCC
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000F0F0F0F0
	return x ^ t ^ t<<28
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
