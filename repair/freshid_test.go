package repair

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestFreshIDReproducible: a repair's new ids are Pi-shaped (8 hex digits),
// the same on every run, and the k-th try is SHA-256(seed + k), so repairs
// made before ids came from jsonl.GenerateID are reproduced too.
func TestFreshIDReproducible(t *testing.T) {
	try := func(k string) string {
		sum := sha256.Sum256([]byte("sess/repair/7/" + k))
		return hex.EncodeToString(sum[:4])
	}
	pl := &plan{idSource: "sess", taken: map[string]bool{try("0"): true}}
	if got, want := pl.freshID(7), try("1"); got != want {
		t.Fatalf("freshID = %s, want %s (the second try: the first is taken)", got, want)
	}
	if got, want := pl.freshID(7), try("2"); got != want {
		t.Fatalf("freshID again = %s, want %s (an id given is taken)", got, want)
	}
}
