package exporter

import (
	"regexp"
	"testing"
)

// grepPrefixRe is the expression grepPrefix stands for.
var grepPrefixRe = regexp.MustCompile(`^([^\s:]+[:-]\d+[:-])`)

// grepCases are grep output lines at the edges of grepPrefix.
var grepCases = []string{
	"", ":", "a:1:", "a:1", "a-1-b", "src/a.go:12:func", "src/a-b.go-12-ctx", "a-1-2:foo", "a-1-2-3-x",
	"a b:1:", ":1:x", "a:1:2:3", "a::1:", "a:-1:", "a\t1:2:", "a\v:1:", "a\f:1:", "né.go:3:x", "\xff:1:",
	"a:12345678901234567890-", "C:\\x:1:", "-1-", "a-", "a-1",
}

// TestGrepPrefix checks grepPrefix against the expression on the edge
// cases.
func TestGrepPrefix(t *testing.T) {
	for _, l := range grepCases {
		if got, want := grepPrefix(l), grepPrefixRe.FindString(l); got != want {
			t.Errorf("grepPrefix(%q) = %q, the expression finds %q", l, got, want)
		}
	}
}

// FuzzGrepPrefix holds grepPrefix to the expression on any line.
func FuzzGrepPrefix(f *testing.F) {
	for _, l := range grepCases {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := grepPrefix(l), grepPrefixRe.FindString(l); got != want {
			t.Errorf("grepPrefix(%q) = %q, the expression finds %q", l, got, want)
		}
	})
}
