package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes parseSize accepts, longest first, in powers of 1024.
var sizeUnits = []struct {
	suffix string
	scale  int64
}{
	{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// maxSize bounds sizes so that scaling cannot overflow.
const maxSize = 1 << 50

// parseSize reads a positive size such as 512, 64KB, 100MB or 1.5GB (case-insensitive).
func parseSize(s string) (int64, error) {
	num, scale := strings.ToUpper(strings.TrimSpace(s)), int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, scale = strings.TrimSpace(rest), u.scale
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: want a number with an optional KB, MB or GB suffix", s)
	}
	n := f * float64(scale)
	if n < 1 || n > maxSize {
		return 0, errors.New("size " + strconv.Quote(s) + " is out of range")
	}
	return int64(n), nil
}
