package textout

import (
	"strconv"
	"strings"
)

// Int writes n with a comma between each group of three digits: 1,614,434.
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	if len(digits) < len(s) {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Float writes f rounded to a whole number, with separators as Int does.
func Float(f float64) string {
	s := strconv.FormatFloat(f, 'f', 0, 64)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil { // beyond int64: no separators rather than a wrong number
		return s
	}
	return Int(n)
}
