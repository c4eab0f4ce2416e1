package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// checkReport checks, before any work, that the report can be written
// where --report says: a file (new, or a regular one) in a folder that
// exists and that this user may write in, or a device such as /dev/stderr.
// A report found unwritable only at the end would come after every repair,
// compaction and archive.
func checkReport(report string) error {
	if report == "-" {
		return nil
	}
	info, err := os.Stat(report)
	switch {
	case err == nil && info.IsDir():
		return usagef("--report %s is a folder; name a file in it", report)
	case err == nil && !info.Mode().IsRegular():
		return nil // a device or a FIFO: written as it is
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usagef("--report %s: %v", report, unwrapPath(err))
	}
	dir := filepath.Dir(report)
	if info, err := os.Stat(dir); err != nil {
		return usagef("--report %s: folder %s: %v", report, dir, unwrapPath(err))
	} else if !info.IsDir() {
		return usagef("--report %s: %s is not a folder", report, dir)
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return usagef("--report %s: cannot write in %s: %v", report, dir, err)
	}
	return nil
}

// unwrapPath is the reason of a path error, without the path, which the
// message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isTTY reports whether r is a terminal (not merely a character device,
// as /dev/null is). nightly run by hand (its standard input a terminal) with
// no DIR asks for --yes before it rewrites Pi's sessions folder; cron and
// systemd, whose standard input is /dev/null or a pipe, need none.
func isTTY(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
