package safefile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked means another process holds the file's lock.
var ErrLocked = errors.New("file is locked by another process")

// LockWait is how long Lock waits for another pitool process to release a
// file before giving up with ErrLocked.
var LockWait = 2 * time.Second

// Lock takes the advisory lock of path, waiting up to LockWait for another
// holder. The lock is an flock on the file itself, so it excludes other pitool
// processes (a nightly job and an interactive run), not Pi, which takes no
// lock: stamps and the live-session guard protect against Pi.
func Lock(path string) (unlock func() error, err error) {
	l := flock.New(path)
	ctx, cancel := context.WithTimeout(context.Background(), LockWait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 50*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrLocked)
	}
	return l.Close, nil
}
