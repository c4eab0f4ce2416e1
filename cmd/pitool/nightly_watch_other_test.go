//go:build !linux

package main

import "testing"

// watchOpens is Linux's inotify; elsewhere no open is seen.
func watchOpens(t *testing.T, dir string) func() []string {
	return func() []string { return nil }
}
