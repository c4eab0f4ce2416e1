package safefile

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// PauseEnv names the test hook: when it names a folder, Commit (before its
// rechecks) and AppendLine (after its check, right before its write) create
// FOLDER/paused and wait for FOLDER/resume, so that a test can append to the
// file at that moment. It is for tests only.
const PauseEnv = "PITOOL_TEST_PAUSE_BEFORE_COMMIT"

// pauseForTest is the hook PauseEnv enables.
func pauseForTest() {
	dir := os.Getenv(PauseEnv)
	if dir == "" {
		return
	}
	if f, err := os.OpenFile(filepath.Join(dir, "paused"), os.O_WRONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "resume")); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// FaultEnv names the fault hook, for tests only: "write-after:N" makes
// every file pitool writes refuse its bytes past the first N with ENOSPC (a
// full disk), and "sync" makes every fsync of a file fail with EIO. Every
// byte and every fsync of a regular file pitool writes (temporary files,
// appends, carried lines) goes through writerOf and syncFile.
const FaultEnv = "PITOOL_TEST_FAULT"

// faults is the fault hook's setting; the zero value injects nothing.
type faults struct {
	writeLimit int64 // bytes a file takes before ENOSPC; -1 for no limit
	syncEIO    bool
}

// injected is what FaultEnv asked for (tests of this package set it directly).
var injected = parseFaults(os.Getenv(FaultEnv))

// parseFaults reads FaultEnv; anything it does not know injects nothing.
func parseFaults(s string) faults {
	f := faults{writeLimit: -1}
	if n, ok := strings.CutPrefix(s, "write-after:"); ok {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 {
			f.writeLimit = v
		}
	}
	f.syncEIO = s == "sync"
	return f
}

// writerOf is what pitool writes the file f through: f itself, or, under
// the fault hook, f refusing bytes past the limit.
func writerOf(f *os.File) io.Writer {
	if injected.writeLimit < 0 {
		return f
	}
	return &limitedFile{f: f, left: injected.writeLimit}
}

// limitedFile writes what fits in left bytes, then fails with ENOSPC, as a
// full disk does (a short write, then the error).
type limitedFile struct {
	f    *os.File
	left int64
}

func (l *limitedFile) Write(b []byte) (int, error) {
	n := int(min(int64(len(b)), l.left))
	n, err := l.f.Write(b[:n])
	l.left -= int64(n)
	if err == nil && n < len(b) {
		err = &os.PathError{Op: "write", Path: l.f.Name(), Err: syscall.ENOSPC}
	}
	return n, err
}

// syncFile fsyncs f, or fails with EIO under the fault hook.
func syncFile(f *os.File) error {
	if injected.syncEIO {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
	}
	return f.Sync()
}
