//go:build linux || darwin || freebsd

package jsonl

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only, for reading in order.
func mapFile(f *os.File, size int) ([]byte, error) {
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	unix.Madvise(data, unix.MADV_SEQUENTIAL) // advice only
	return data, nil
}

// dropPages removes mapped pages from the resident set; they stay in the
// page cache.
func dropPages(b []byte) { unix.Madvise(b, unix.MADV_DONTNEED) }

func unmapFile(b []byte) { unix.Munmap(b) }
