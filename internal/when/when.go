// Package when is pitool's one grammar of times and ages: every --since,
// --until, --archive-after and --min-idle reads its value here, so "7d" means
// the same to each of them and each refuses a value in the same words.
package when

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Day and Week are the lengths of the units d and w: 24 and 168 hours (a
// calendar day across a daylight-saving change is not meant).
const (
	Day  = 24 * time.Hour
	Week = 7 * Day
)

// units are the units of an age, by their letter.
var units = map[string]time.Duration{
	"s": time.Second,
	"m": time.Minute,
	"h": time.Hour,
	"d": Day,
	"w": Week,
}

// AgeForms and TimeForms say what ParseAge and ParseTime accept, for help
// texts and errors.
const (
	AgeForms  = "30s, 10m, 12h, 7d, 2w"
	TimeForms = "an age (7d, 12h, 30m, 90s, 2w), a date (2026-01-31) or an ISO time (2026-01-31T15:04:05Z)"
)

// timeLayouts are the dates and ISO times ParseTime reads; a layout without
// a zone is local time, and a date alone is its local midnight.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}

// Error is a value that is not of the grammar: Input as given, Want what is
// accepted. Its text leaves the flag's name to the caller.
type Error struct {
	Input  string
	Reason string // "needs a unit", "is not an age", "is not a time"
	Want   string
}

func (e *Error) Error() string { return fmt.Sprintf("%q %s: %s", e.Input, e.Reason, e.Want) }

// ParseAge reads an age: a number (decimals allowed) and one unit of s, m, h,
// d or w ("90s", "1.5h", "7d"), or a Go duration ("1h30m"). "0" is no age.
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	if d, ok := unitAge(s); ok {
		return d, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d, nil
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, &Error{Input: s, Reason: "needs a unit", Want: AgeForms}
	}
	return 0, &Error{Input: s, Reason: "is not an age", Want: AgeForms}
}

// unitAge reads a number followed by one unit letter.
func unitAge(s string) (time.Duration, bool) {
	if len(s) < 2 {
		return 0, false
	}
	unit, ok := units[s[len(s)-1:]]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseFloat(s[:len(s)-1], 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || n*float64(unit) > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(n * float64(unit)), true
}

// ParseTime reads a point in time: an age before now ("7d" is seven days
// ago), a date (its local midnight) or an ISO time (local unless it has a
// zone).
func ParseTime(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	if d, err := ParseAge(s); err == nil {
		return now.Add(-d), nil
	} else if e, ok := err.(*Error); ok && e.Reason == "needs a unit" {
		return time.Time{}, &Error{Input: s, Reason: "needs a unit", Want: TimeForms}
	}
	return time.Time{}, &Error{Input: s, Reason: "is not a time", Want: TimeForms}
}

// FormatAge writes d in the grammar ParseAge reads, in its largest whole
// unit ("10m", "30d"), or as a Go duration when no unit divides it.
func FormatAge(d time.Duration) string {
	for _, u := range []struct {
		letter string
		len    time.Duration
	}{{"w", Week}, {"d", Day}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}} {
		if d != 0 && d%u.len == 0 {
			return strconv.FormatInt(int64(d/u.len), 10) + u.letter
		}
	}
	return d.String()
}
