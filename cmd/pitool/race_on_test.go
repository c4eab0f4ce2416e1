//go:build race

package main

// raceDetector reports whether the tests were built with -race, which makes
// the pitool binary they run several times larger per entry.
const raceDetector = true
