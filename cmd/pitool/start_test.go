package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Package initialisation budget of every pitool process (issue 28, pass 6):
// pitool --version allocated 45,000 times and 5 MB before the third_party
// copies made chroma's lexers, bluemonday and goldmark's extension do their
// work on first use; about 5,500 and 1.1 MB after. Allocations do not move
// with the machine's load, unlike the time.
const (
	maxStartAllocs = 10_000
	maxStartBytes  = 2 << 20 // the first GC starts at 4 MB
)

// eagerPackages are the upstream packages whose start cost the copies in
// third_party remove; linking one again brings it back.
var eagerPackages = []string{
	"github.com/alecthomas/chroma/v2/lexers",
	"github.com/microcosm-cc/bluemonday",
	"github.com/microcosm-cc/bluemonday/css",
	"github.com/gorilla/css/scanner",
	"github.com/yuin/goldmark/extension",
}

// TestStartIsCheap runs pitool --version with GODEBUG=inittrace=1 and holds
// its package initialisation to the budget, with none of eagerPackages.
func TestStartIsCheap(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pitool := filepath.Join(t.TempDir(), "pitool")
	if err := os.Symlink(self, pitool); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pitool, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pitool --version: %v: %s", err, stderr.String())
	}
	allocs, size, pkgs := initTotals(t, stderr.String())
	t.Logf("package initialisation: %d allocations, %d bytes", allocs, size)
	for _, p := range eagerPackages {
		if pkgs[p] {
			t.Errorf("%s is initialised at start again", p)
		}
	}
	if allocs > maxStartAllocs || size > maxStartBytes {
		t.Errorf("package initialisation: %d allocations, %d bytes; budget %d, %d", allocs, size, maxStartAllocs, maxStartBytes)
	}
}

// initTotals sums inittrace's lines ("init PKG @T ms, C ms clock, B bytes,
// A allocs") and lists their packages.
func initTotals(t *testing.T, trace string) (allocs, size int, pkgs map[string]bool) {
	pkgs = map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("inittrace line %q", sc.Text())
		}
		pkgs[f[1]] = true
		size += b
		allocs += a
	}
	if len(pkgs) == 0 {
		t.Fatalf("no inittrace lines in %q", trace)
	}
	return allocs, size, pkgs
}
