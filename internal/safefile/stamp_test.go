package safefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLastChangeKnowsPitoolsOwnAppend: after AppendLine, the file's last
// change is still the one before it, until someone else appends.
func TestLastChangeKnowsPitoolsOwnAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if unix.Setxattr(path, "user.probe", []byte("1"), 0) != nil {
		t.Skip("no user extended attributes here")
	}
	then := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, then, then); err != nil {
		t.Fatal(err)
	}
	stamp, err := StatStamp(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := AppendLine(path, stamp, []byte("{\"a\":1}\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := LastChange(path); err != nil || !got.Equal(then) {
		t.Errorf("after pitool's append: last change %v (%v), want %v", got, err, then)
	}
	if err := CheckIdle(path, time.Minute); err != nil {
		t.Errorf("pitool's own append made the file live: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"b\":2}\n")
	f.Close()
	if got, _ := LastChange(path); got.Equal(then) {
		t.Error("an append after pitool's still counts as pitool's")
	}
	if err := CheckIdle(path, time.Minute); err == nil {
		t.Error("a file appended to just now is idle")
	}
}
