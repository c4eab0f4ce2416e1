package jsonl

import (
	"bytes"
	"math"
	"strconv"
	"strings"
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
			if js := jsNumberLiteral(lit); !bytes.Equal(js, lit) {
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

// jsNumberLiteral formats the number literal lit as JavaScript's Number#toString
// does for the double it reads as (JSON.stringify: null for ±Infinity).
func jsNumberLiteral(lit []byte) []byte {
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil && !math.IsInf(f, 0) {
		return lit // not a number JSON.parse would read: leave it
	}
	return []byte(JSNumberString(f))
}

// JSNumberString is String(f) in JavaScript, with "null" for NaN and the
// infinities as JSON.stringify writes them.
func JSNumberString(f float64) string {
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		return "null"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + JSNumberString(-f)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX, the shortest digits
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return m + "e" + sign + strconv.Itoa(abs(n-1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
