package jsonl

import (
	"os"
	"path/filepath"
	"strings"
)

// SpecialKind names a file mode that is neither a folder nor a regular file,
// as every message and report that skips one says it: "a FIFO", "a socket",
// "a device".
func SpecialKind(mode os.FileMode) string {
	switch {
	case mode&os.ModeNamedPipe != 0:
		return "a FIFO"
	case mode&os.ModeSocket != 0:
		return "a socket"
	case mode&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// notRegular is the error for a name that turned out, once opened, to be a
// FIFO, device or socket: never a session, whatever the walk saw there.
func notRegular(name string, mode os.FileMode) *NotSessionError {
	return &NotSessionError{File: name, Reason: SpecialKind(mode) + ", not a regular file"}
}

// IsDescriptorPath reports whether name names one of the process's own
// descriptors (/dev/stdin, /dev/fd/N, /proc/self/fd/N): what a shell's
// process substitution passes, the one place a pipe is a session's bytes.
func IsDescriptorPath(name string) bool {
	p := filepath.Clean(name)
	if p == "/dev/stdin" {
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}
