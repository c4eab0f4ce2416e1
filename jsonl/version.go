package jsonl

import (
	"math"
	"strconv"
	"strings"
)

// SessionVersion is the format version Pi reads a session as, given the raw
// JSON value of its header's "version" (nil when absent). Pi takes
// `header.version ?? 1` and compares it with 2 and 3 as JavaScript does,
// converting it to a number first (migrateToCurrentVersion): below 2 is
// v1, below 3 is v2, and anything else is v3, a value that is not a number
// (NaN: "abc", {}) included. So "3" and 3.0 are v3, "" and true are v1,
// [2] is v2, and 7 is read as v3.
func SessionVersion(raw []byte) int {
	if IsNull(raw) {
		return 1
	}
	switch n := jsNumber(raw); {
	case n < 2:
		return 1
	case n < 3:
		return 2
	}
	return CurrentVersion // also NaN, which compares false with anything
}

// jsNumber is JavaScript's Number(value) of a raw JSON value. An array is
// converted through its string, as JavaScript does: [] is "", [x] is x's
// string, and two or more elements hold a comma, which is NaN.
func jsNumber(raw []byte) float64 {
	inArray := false
	for len(raw) > 0 && raw[0] == '[' {
		elems, err := ParseArray(raw)
		switch {
		case err != nil || len(elems) > 1:
			return math.NaN()
		case len(elems) == 0:
			return 0
		}
		raw, inArray = elems[0], true
	}
	switch {
	case IsNull(raw):
		return 0 // null in an array is ""; alone it never gets here
	case raw[0] == '"':
		s, _ := DecodeString(raw)
		return stringToNumber(s)
	case raw[0] == 't' && !inArray:
		return 1
	case raw[0] == 'f' && !inArray:
		return 0
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		n, _ := strconv.ParseFloat(string(raw), 64)
		return n
	}
	return math.NaN() // an object, or a boolean's string in an array
}

// jsSpace is the white space JavaScript trims from a string it converts to
// a number: WhiteSpace and LineTerminator.
const jsSpace = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

// stringToNumber is JavaScript's StringToNumber: a decimal literal with an
// optional sign, fraction and exponent, Infinity, or 0x, 0o and 0b
// integers, between white space; "" is 0 and anything else NaN.
func stringToNumber(s string) float64 {
	s = strings.Trim(s, jsSpace)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		if base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]; base != 0 {
			return radixInteger(s[2:], base)
		}
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return math.NaN()
	}
	if body == "Infinity" {
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if !isDecimalLiteral(body) {
		return math.NaN()
	}
	n, _ := strconv.ParseFloat(s, 64)
	return n
}

// radixInteger reads digits in base, NaN when one is not a digit of it.
func radixInteger(digits string, base int) float64 {
	n := 0.0
	for _, c := range digits {
		d, err := strconv.ParseInt(string(c), base, 8)
		if err != nil {
			return math.NaN()
		}
		n = n*float64(base) + float64(d)
	}
	return n
}

// isDecimalLiteral reports whether s is an unsigned StrDecimalLiteral:
// digits with an optional point (at least one digit on some side of it),
// then an optional exponent.
func isDecimalLiteral(s string) bool {
	i, digits := 0, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}
