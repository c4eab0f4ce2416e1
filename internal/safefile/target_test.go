package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenTargetRefusesEarly: a missing folder and a folder named as the
// file are refused by OpenTarget, before anything is written, naming the
// user's path.
func TestOpenTargetRefusesEarly(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", "y.jsonl")
	if _, err := OpenTarget(missing, Options{}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing folder: %v, want ErrNotExist naming %s", err, missing)
	}
	if _, err := OpenTarget(dir, Options{}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a folder: %v, want 'is a directory'", err)
	}
}

// TestTargetCheck: Check is given the file that is there, and its refusal
// leaves the file as it was; a file that is not there is not checked.
func TestTargetCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "old\n", 0o600)
	refuse := errors.New("refused")
	var seen string
	opts := Options{Check: func(f *os.File, _ os.FileInfo) error {
		b := make([]byte, 3)
		f.Read(b)
		seen = string(b)
		return refuse
	}}
	if _, err := OpenTarget(path, opts); !errors.Is(err, refuse) || seen != "old" {
		t.Errorf("OpenTarget = %v, Check read %q; want its refusal after reading old", err, seen)
	}
	assertUntouched(t, dir, "old\n")
	if err := WriteFile(filepath.Join(dir, "new.jsonl"), opts, writeString("x\n")); err != nil {
		t.Errorf("a new file is not checked: %v", err)
	}
}

// TestTargetReplacedMeanwhile: a file swapped in between OpenTarget (which
// checked the one there) and the rename is not replaced.
func TestTargetReplacedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	mustWrite(t, path, "checked\n", 0o600)
	tg, err := OpenTarget(path, Options{Check: func(*os.File, os.FileInfo) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	other := filepath.Join(dir, "other")
	mustWrite(t, other, "kept\n", 0o600)
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	err = tg.Write(writeString("new\n"))
	if !errors.Is(err, ErrChanged) || strings.Contains(err.Error(), tempMarker) {
		t.Errorf("Write = %v, want ErrChanged naming no temporary file", err)
	}
	assertUntouched(t, dir, "kept\n")
}

// TestCheckFolder: a folder passes; a missing one and a file are refused,
// naming the path.
func TestCheckFolder(t *testing.T) {
	dir := t.TempDir()
	if err := CheckFolder(dir); err != nil {
		t.Errorf("CheckFolder(%s) = %v", dir, err)
	}
	file := filepath.Join(dir, "f")
	mustWrite(t, file, "x", 0o600)
	for _, p := range []string{filepath.Join(dir, "nope"), file} {
		if err := CheckFolder(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("CheckFolder(%s) = %v, want an error naming it", p, err)
		}
	}
}
