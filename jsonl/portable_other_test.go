//go:build !amd64

package jsonl

// portable is a no-op where the portable path is the only one.
func portable() (restore func()) { return func() {} }

// eachPath calls f on the one path of the string map, the portable one.
func eachPath(f func(path string)) { f("portable") }
