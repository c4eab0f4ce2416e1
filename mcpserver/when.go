package mcpserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pitool/pitool/jsonl"
)

// whenHelp says what a time parameter takes; tool descriptions and errors
// quote it.
const whenHelp = "a date (2026-01-31), an ISO time (2026-01-31T15:04:05Z) or an age before now (90m, 12h, 7d)"

// parseWhen reads a time parameter ("" is an open end): a date at local
// midnight, an ISO time, or an age before now.
func parseWhen(name, v string, now time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", v, time.Local); err == nil {
		return t, nil
	}
	if t, ok := jsonl.ParseTimestamp(v); ok {
		return t, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.ParseFloat(days, 64); err == nil && n >= 0 {
			return now.Add(-time.Duration(n * float64(24*time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%s: %q is not %s", name, v, whenHelp)
}

// timeRange reads since and until.
func timeRange(since, until string) (from, to time.Time, err error) {
	now := time.Now()
	if from, err = parseWhen("since", since, now); err == nil {
		to, err = parseWhen("until", until, now)
	}
	return from, to, err
}
