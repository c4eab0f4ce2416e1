package testref

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHarnessMatchesGolden: the repository's harness, scripts/pi-ref, prints
// for v3/linear.jsonl exactly the context in the committed golden, which Pi's
// own code printed (this test only reads it). It needs node and npm, and the
// npm registry the first time, when scripts/pi-ref installs Pi; without them
// it is skipped.
func TestHarnessMatchesGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the harness may first have to install Pi")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	if out, err := exec.Command(Harness(), "--install").CombinedOutput(); err != nil {
		t.Skipf("scripts/pi-ref could not install Pi (no network?): %v\n%s", err, out)
	}
	cmd := exec.Command(Harness(), "context", Corpus("v3/linear.jsonl"))
	cmd.Stderr = os.Stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/pi-ref context: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "golden", "v3-linear.context.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("scripts/pi-ref context (%d bytes, sha256 %x) differs from the golden (%d bytes, sha256 %x)", len(got), sha256.Sum256(got), len(want), sha256.Sum256(want))
	}
}
