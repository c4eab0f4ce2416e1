// Package testref gives tests golden files produced by Pi's own code through
// the repository's harness, scripts/pi-ref, regenerated with -update and
// compared as JSON. Every test package of the module imports it (those without
// goldens too), so that `go test ./... -update` runs everywhere.
package testref

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/pitool/pitool/internal/safefile"
)

// Update regenerates goldens from the reference instead of comparing.
var Update = flag.Bool("update", false, "regenerate golden files with scripts/pi-ref (Pi's own code; needs node and npm)")

// RepoRoot returns the repository's root folder.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Corpus returns the path of a file in testdata/corpus.
func Corpus(rel string) string { return filepath.Join(RepoRoot(), "testdata", "corpus", rel) }

// Harness returns the repository's reference runner, scripts/pi-ref.
func Harness() string { return filepath.Join(RepoRoot(), "scripts", "pi-ref") }

// PiRef returns the reference runner tests use: $PI_REF, or Harness.
func PiRef() string {
	if p := os.Getenv("PI_REF"); p != "" {
		return p
	}
	return Harness()
}

// Run runs the reference with args and returns its standard output. Pi's ids,
// clock and the names of its temporary folders are fixed
// (PI_REF_DETERMINISTIC=1), so that a golden regenerates byte for byte.
func Run(args ...string) ([]byte, error) {
	cmd := exec.Command(PiRef(), args...)
	cmd.Env = append(os.Environ(), "PI_REF_DETERMINISTIC=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("pi-ref %v: %w: %s", args, err, stderr.String())
	}
	return out, nil
}

// Golden returns the golden file golden (a path), regenerating it with the
// reference args when -update is set.
func Golden(t testing.TB, golden string, args ...string) []byte {
	t.Helper()
	if *Update {
		out, err := Run(args...)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		err = safefile.WriteFile(golden, safefile.Options{}, func(w io.Writer) error { _, err := w.Write(out); return err })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run the test with -update to produce it from pi-ref)", err)
	}
	return out
}

// JSONEqual reports whether two JSON documents are equal, numbers compared as
// numbers and key order ignored; diff names the first difference.
func JSONEqual(a, b []byte) (equal bool, diff string) {
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		return false, "first document: " + err.Error()
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		return false, "second document: " + err.Error()
	}
	return firstDiff("$", va, vb)
}

func firstDiff(path string, a, b any) (bool, string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return false, path + ": object vs " + fmt.Sprintf("%T", b)
		}
		return mapDiff(path, x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false, fmt.Sprintf("%s: array of %d vs %v", path, len(x), describeLen(b))
		}
		for i := range x {
			if ok, d := firstDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); !ok {
				return false, d
			}
		}
		return true, ""
	}
	if !reflect.DeepEqual(a, b) {
		return false, fmt.Sprintf("%s: %.200v vs %.200v", path, a, b)
	}
	return true, ""
}

func mapDiff(path string, x, y map[string]any) (bool, string) {
	for k := range y {
		if _, ok := x[k]; !ok {
			return false, path + "." + k + ": missing in first"
		}
	}
	for k, v := range x {
		w, ok := y[k]
		if !ok {
			return false, path + "." + k + ": missing in second"
		}
		if ok, d := firstDiff(path+"."+k, v, w); !ok {
			return false, d
		}
	}
	return true, ""
}

func describeLen(v any) string {
	if a, ok := v.([]any); ok {
		return fmt.Sprintf("array of %d", len(a))
	}
	return fmt.Sprintf("%T", v)
}

// AssertJSONEqual fails the test when got and want differ as JSON.
func AssertJSONEqual(t testing.TB, name string, got, want []byte) {
	t.Helper()
	if ok, diff := JSONEqual(got, want); !ok {
		t.Errorf("%s differs from pi-ref: %s", name, diff)
	}
}

// RefusedResults decides from a provider view alone (the JSON array of
// messages that pi-ref provider and pitool context --view provider print)
// which tool results a provider refuses: those whose call is not among the
// tool calls of the last assistant message before them with no user message
// between, and those answering a call already answered since that message.
// It returns their call ids in order. It reads the view with encoding/json,
// apart from jsonl, so that it can check jsonl's own request check.
func RefusedResults(t testing.TB, view []byte) []string {
	t.Helper()
	var msgs []struct {
		Role       string          `json:"role"`
		ToolCallID string          `json:"toolCallId"`
		Content    json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(view, &msgs); err != nil {
		t.Fatal(err)
	}
	var open, answered map[string]bool
	var refused []string
	for _, m := range msgs {
		switch m.Role {
		case "assistant":
			open, answered = map[string]bool{}, map[string]bool{}
			var blocks []struct{ Type, ID string }
			_ = json.Unmarshal(m.Content, &blocks)
			for _, b := range blocks {
				if b.Type == "toolCall" {
					open[b.ID] = true
				}
			}
		case "user":
			open, answered = nil, nil
		case "toolResult":
			if !open[m.ToolCallID] || answered[m.ToolCallID] {
				refused = append(refused, m.ToolCallID)
				continue
			}
			answered[m.ToolCallID] = true
		}
	}
	return refused
}
