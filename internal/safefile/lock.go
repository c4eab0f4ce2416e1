package safefile

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// ErrLocked means another process holds the file's lock.
var ErrLocked = errors.New("file is locked by another process")

// LockWait is how long Lock waits for another pitool process to release a
// file before giving up with ErrLocked.
var LockWait = 2 * time.Second

// lockPoll is how often Lock tries again.
const lockPoll = 50 * time.Millisecond

// Lock takes the advisory lock of an existing file, waiting up to LockWait
// for another holder. The lock is an flock on the file itself, so it
// excludes other pitool processes (a nightly job and an interactive run), not
// Pi, which takes no lock: stamps and the live-session guard protect against
// Pi. Lock never creates the file, and refuses one that is not regular
// without blocking on it (it is opened with O_NONBLOCK and checked through
// its descriptor; a symlink is followed by the kernel, under its
// protected_symlinks rule).
func Lock(path string) (unlock func() error, err error) {
	f, err := openRegularAt(unix.AT_FDCWD, path, path, unix.O_RDONLY)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f.Close, nil
}

// lockFile takes the flock of the open file f, waiting up to LockWait; it
// is released when f is closed.
func lockFile(f *os.File) error {
	deadline := time.Now().Add(LockWait)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, unix.EWOULDBLOCK):
			return fmt.Errorf("lock %s: %w", f.Name(), err)
		case time.Now().After(deadline):
			return fmt.Errorf("%s: %w", f.Name(), ErrLocked)
		}
		time.Sleep(lockPoll)
	}
}
