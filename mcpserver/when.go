package mcpserver

import (
	"fmt"
	"time"

	"github.com/pitool/pitool/internal/when"
)

// whenHelp says what a time parameter takes (internal/when's grammar, the
// one every --since and --until of the command line reads); tool
// descriptions quote it.
const whenHelp = when.TimeForms

// timeRange reads the since and until parameters ("" is an open end).
func timeRange(since, until string) (from, to time.Time, err error) {
	now := time.Now()
	if from, err = parseWhen("since", since, now); err == nil {
		to, err = parseWhen("until", until, now)
	}
	return from, to, err
}

func parseWhen(name, v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := when.ParseTime(v, now)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}
