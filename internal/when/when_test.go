package when

import (
	"errors"
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0":     0,
		"90s":   90 * time.Second,
		"30m":   30 * time.Minute,
		"12h":   12 * time.Hour,
		"7d":    7 * Day,
		"2w":    2 * Week,
		"1.5d":  36 * time.Hour,
		"1h30m": 90 * time.Minute,
	} {
		got, err := ParseAge(in)
		if err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseAgeRefuses(t *testing.T) {
	for in, reason := range map[string]string{
		"5":   "needs a unit",
		"7y":  "is not an age",
		"d":   "is not an age",
		"-3d": "is not an age",
		"abc": "is not an age",
	} {
		_, err := ParseAge(in)
		var e *Error
		if !errors.As(err, &e) || e.Reason != reason || e.Want != AgeForms {
			t.Errorf("ParseAge(%q) error = %v; want reason %q", in, err, reason)
		}
	}
	_, err := ParseAge("5")
	if want := `"5" needs a unit: 30s, 10m, 12h, 7d, 2w`; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":                   now.Add(-7 * Day),
		"12h":                  now.Add(-12 * time.Hour),
		"2w":                   now.Add(-2 * Week),
		"2026-01-31":           time.Date(2026, 1, 31, 0, 0, 0, 0, time.Local),
		"2026-01-31T15:04":     time.Date(2026, 1, 31, 15, 4, 0, 0, time.Local),
		"2026-01-31T15:04:05Z": time.Date(2026, 1, 31, 15, 4, 5, 0, time.UTC),
		"2026-01-31T15:04:05.5+02:00": time.Date(2026, 1, 31, 15, 4, 5, 5e8,
			time.FixedZone("", 2*3600)),
	} {
		got, err := ParseTime(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestParseTimeRefuses(t *testing.T) {
	now := time.Now()
	for in, reason := range map[string]string{
		"7":          "needs a unit",
		"yesterday":  "is not a time",
		"2026-13-01": "is not a time",
	} {
		_, err := ParseTime(in, now)
		var e *Error
		if !errors.As(err, &e) || e.Reason != reason || e.Want != TimeForms {
			t.Errorf("ParseTime(%q) error = %v; want reason %q", in, err, reason)
		}
	}
}
