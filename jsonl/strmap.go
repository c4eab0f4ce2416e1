package jsonl

import (
	"math/bits"
)

// A session line is mostly string content, dense with escapes: in a typical
// tool result a quote or a backslash comes every 14 bytes or so, which makes
// a byte-by-byte string scanner branch on almost every word. The skimmer
// therefore maps a line's strings in bulk first, 64 bytes at a time, the way
// simdjson's first stage does: classify finds the quotes, backslashes and
// control bytes of each block (with SSE2 on amd64), and the block masks give,
// without a branch per byte, which quotes open or close a string and which
// bytes lie inside one. The parser then jumps from a string's opening quote
// straight to its closing one.
//
// The map assumes the line is well formed: if it is not, the parser rejects
// it on its own, since every byte outside a string passes through the parser.
// If it is, the quotes the map finds are exactly the string delimiters, so a
// control byte inside a string or a bad escape, which the map checks in bulk,
// is a real error.

const (
	blockBytes = 64
	// masksPerBlock is how many words classify writes per block: quotes,
	// backslashes and control bytes, in that order.
	masksPerBlock = 3
	oddBits       = 0xAAAAAAAAAAAAAAAA
)

// stringMap records which quotes of a line delimit strings.
type stringMap struct {
	masks []uint64 // per block: delimiting quotes (after build), backslashes, control bytes
	pad   [blockBytes]byte
}

// build maps the strings of b. It returns false when a string holds a raw
// control byte or an invalid escape, as JSON.parse would refuse, or when the
// last string is not closed.
func (m *stringMap) build(b []byte) bool {
	m.classifyLine(b)
	var escapedCarry, insideCarry uint64
	for k := 0; k < len(m.masks); k += masksPerBlock {
		quotes, backslashes, controls := m.masks[k], m.masks[k+1], m.masks[k+2]
		escaped := escapedBits(backslashes, &escapedCarry)
		delimiters := quotes &^ escaped
		inside := prefixXor(delimiters) ^ insideCarry
		insideCarry = uint64(int64(inside) >> 63)
		if controls&inside != 0 || !validEscapes(b, k/masksPerBlock*blockBytes, escaped) {
			return false
		}
		m.masks[k] = delimiters
	}
	return insideCarry == 0
}

// classifyLine fills masks for b, whole blocks in place and the tail through
// a copy padded with spaces, which are neither quotes, backslashes nor
// control bytes.
func (m *stringMap) classifyLine(b []byte) {
	blocks := (len(b) + blockBytes - 1) / blockBytes
	if cap(m.masks) < blocks*masksPerBlock {
		m.masks = make([]uint64, blocks*masksPerBlock)
	}
	m.masks = m.masks[:blocks*masksPerBlock]
	whole := len(b) / blockBytes * blockBytes
	classify(b[:whole], m.masks)
	if tail := b[whole:]; len(tail) > 0 {
		n := copy(m.pad[:], tail)
		for i := n; i < blockBytes; i++ {
			m.pad[i] = ' '
		}
		classify(m.pad[:], m.masks[len(m.masks)-masksPerBlock:])
	}
}

// closingQuote returns the position of the first delimiting quote after i,
// or -1 when there is none.
func (m *stringMap) closingQuote(i int) int {
	i++
	k := i / blockBytes * masksPerBlock
	if k >= len(m.masks) {
		return -1
	}
	if w := m.masks[k] >> (i % blockBytes); w != 0 {
		return i + bits.TrailingZeros64(w)
	}
	for k += masksPerBlock; k < len(m.masks); k += masksPerBlock {
		if w := m.masks[k]; w != 0 {
			return k/masksPerBlock*blockBytes + bits.TrailingZeros64(w)
		}
	}
	return -1
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

// validEscapes checks the bytes of block base (of b) that follow a backslash:
// each must complete an escape. A flagged byte past the end means the line
// ends on a backslash.
func validEscapes(b []byte, base int, escaped uint64) bool {
	for ; escaped != 0; escaped &= escaped - 1 {
		i := base + bits.TrailingZeros64(escaped)
		if i >= len(b) || (!simpleEscape[b[i]] && escapeLen(b[i-1:]) == 0) {
			return false
		}
	}
	return true
}

// classifyGeneric is classify in portable Go, eight bytes at a time.
func classifyGeneric(src []byte, masks []uint64) {
	for block := 0; block+blockBytes <= len(src); block += blockBytes {
		var quotes, backslashes, controls uint64
		for w := 0; w < blockBytes; w += 8 {
			x := leUint64(src[block+w:])
			shift := uint(w)
			quotes |= gatherHighBits(zeroBytes(x^(ones*'"'))) << shift
			backslashes |= gatherHighBits(zeroBytes(x^(ones*'\\'))) << shift
			controls |= gatherHighBits(zeroBytes(x&(ones*0xE0))) << shift
		}
		k := block / blockBytes * masksPerBlock
		masks[k], masks[k+1], masks[k+2] = quotes, backslashes, controls
	}
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

func leUint64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
