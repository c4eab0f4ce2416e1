package safefile

import (
	"os"
	"path/filepath"
	"time"
)

// PauseEnv names the test hook: when it names a folder, Commit creates
// FOLDER/paused and waits for FOLDER/resume before its rechecks, so that a
// test can append to the file at that moment. It is for tests only.
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
