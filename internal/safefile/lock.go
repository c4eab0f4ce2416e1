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
// Pi. Lock never creates the file, and refuses one that is not regular.
func Lock(path string) (unlock func() error, err error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(LockWait)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return f.Close, nil
		case !errors.Is(err, unix.EWOULDBLOCK):
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		case time.Now().After(deadline):
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, ErrLocked)
		}
		time.Sleep(lockPoll)
	}
}
