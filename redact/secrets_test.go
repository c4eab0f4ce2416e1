package redact

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReadSecretsFile takes secret-looking assignments and bare tokens
// from an rc file, and leaves ordinary settings alone.
func TestReadSecretsFile(t *testing.T) {
	rc := `# ~/.zshrc
export EDITOR=vim
export PATH="$HOME/bin:$PATH"
export OPENAI_API_KEY="sk-proj-abc123def456ghi789"
GITHUB_TOKEN=ghp_0123456789abcdefABCDEF0123456789abcd # work
alias ll='ls -la'
export SESSION_ID='q'
setenv DB_PASS hunter2hunter2
export RANDOM_LOOKING=Zq8Xw2Lk9Mv4Rt7Yp3Bn6
export LANG=en_US.UTF-8
x9Kq2Lm8Np4Rs6Tv
`
	path := filepath.Join(t.TempDir(), "rc")
	if err := os.WriteFile(path, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSecretsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"sk-proj-abc123def456ghi789",
		"ghp_0123456789abcdefABCDEF0123456789abcd",
		"hunter2hunter2",
		"Zq8Xw2Lk9Mv4Rt7Yp3Bn6",
		"x9Kq2Lm8Np4Rs6Tv",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if _, err := ReadSecretsFile(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing file gave no error")
	}
}
