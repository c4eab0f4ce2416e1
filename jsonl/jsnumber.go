package jsonl

import (
	"bytes"
	"math"
	"strconv"
	"unsafe"
)

// JSNumbers returns the JSON text b with every number written as
// JSON.stringify writes the double JSON.parse reads from it: an integer
// beyond 2^53 rounded (9223372036854775808 → 9223372036854776000), "1.0" as
// 1, 1E400 as null. It is what Pi sends a provider and what it measures for
// its token estimates. b itself is returned, not copied, when every number
// is written so already (integers of at most 15 digits always are), which
// is the rule in Pi's files.
func JSNumbers(b []byte) []byte {
	var out []byte
	var buf [40]byte
	done := 0 // b[:done] is in out (when out is not nil)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			i = stringEnd(b, i)
			continue
		case c != '-' && (c < '0' || c > '9'):
			i++
			continue
		}
		end := i + 1
		for end < len(b) && isNumberByte(b[end]) {
			end++
		}
		lit := b[i:end]
		if !plainInteger(lit) {
			if js := jsNumberLiteral(lit, buf[:]); !bytes.Equal(js, lit) {
				if out == nil {
					out = make([]byte, 0, len(b)+16)
				}
				out = append(append(out, b[done:i]...), js...)
				done = end
			}
		}
		i = end
	}
	if out == nil {
		return b
	}
	return append(out, b[done:]...)
}

// stringEnd returns the position after the string literal that starts at
// b[i], or len(b) when it is not closed.
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		bs := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return j + 1
		}
		j++
	}
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// plainInteger reports whether lit is an integer of at most 15 digits
// without a leading zero (or 0): exact in a double, and written back as is.
func plainInteger(lit []byte) bool {
	d := lit
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || (d[0] == '0' && len(d) > 1) || (len(lit) != len(d) && d[0] == '0') {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// jsNumberLiteral formats the number literal lit as JavaScript's
// Number#toString does for the double it reads as (JSON.stringify: null for
// ±Infinity), in buf when it fits.
func jsNumberLiteral(lit []byte, buf []byte) []byte {
	f, err := strconv.ParseFloat(unsafeString(lit), 64)
	if err != nil && !math.IsInf(f, 0) {
		return lit // not a number JSON.parse would read: leave it
	}
	return appendJSNumber(buf[:0], f)
}

// JSNumberString is String(f) in JavaScript, with "null" for NaN and the
// infinities as JSON.stringify writes them.
func JSNumberString(f float64) string { return string(appendJSNumber(nil, f)) }

func appendJSNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return append(dst, "null"...)
	case f == 0:
		return append(dst, '0')
	case f < 0:
		dst = append(dst, '-')
		f = -f
	}
	var eb [32]byte
	e := strconv.AppendFloat(eb[:0], f, 'e', -1, 64) // d.ddde±XX, the shortest digits
	cut := bytes.IndexByte(e, 'e')
	x, _ := strconv.Atoi(unsafeString(e[cut+1:]))
	var db [24]byte
	digits := append(append(db[:0], e[0]), e[min(2, cut):cut]...)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
		return dst
	case 0 < n && n <= 21:
		dst = append(append(dst, digits[:n]...), '.')
		return append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, "0."...)
		for range -n {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if k > 1 {
		dst = append(append(dst, '.'), digits[1:]...)
	}
	dst = append(dst, 'e')
	if n-1 < 0 {
		dst = append(dst, '-')
	} else {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(abs(n-1)), 10)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// unsafeString views b as a string for a call that does not keep it.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
