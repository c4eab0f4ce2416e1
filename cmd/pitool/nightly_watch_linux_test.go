package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// watchOpens starts watching the files of dir and its subfolders with
// inotify, and returns a function that stops and lists the files (not
// folders) opened meanwhile. An overflowed event queue counts as an open.
func watchOpens(t *testing.T, dir string) func() []string {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatalf("inotify: %v", err)
	}
	folders := map[int32]string{}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		wd, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN)
		folders[int32(wd)] = path
		return err
	})
	if err != nil {
		t.Fatalf("inotify watch: %v", err)
	}
	return func() []string {
		defer syscall.Close(fd)
		var opened []string
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if n <= 0 || err != nil {
				return opened
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := string(bytes.TrimRight(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)], "\x00"))
				switch {
				case ev.Mask&syscall.IN_Q_OVERFLOW != 0:
					opened = append(opened, "(event queue overflowed)")
				case ev.Mask&syscall.IN_OPEN != 0 && ev.Mask&syscall.IN_ISDIR == 0:
					opened = append(opened, filepath.Join(folders[ev.Wd], name))
				}
				off += syscall.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}
