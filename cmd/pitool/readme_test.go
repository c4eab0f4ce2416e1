package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pitool/pitool/internal/testref"
)

// readmePath is the README whose examples TestReadmeExamples runs.
const readmePath = "../../README.md"

// The README's examples are ```console blocks: each line starting "$ " is a
// command, run by sh in a copy of the repository's testdata (so a command
// that writes works on the copy), and the lines up to the next command or
// the block's end are what it prints, stdout and stderr as a terminal shows
// them. Commands run with TZ=UTC, NO_COLOR=1, COLUMNS=120, HOME and Pi's
// folder in the copy, and pitool from this test binary first in PATH.

// regenerateReadme says how to bring the README's example outputs up to date.
const regenerateReadme = "regenerate them with 'go test ./cmd/pitool -run TestReadmeExamples -update' and check the diff"

// example is one command of a console block and what it printed.
type example struct {
	command string
	output  string
}

// consoleBlock matches a ```console block, its body in group 1.
var consoleBlock = regexp.MustCompile("(?ms)^```console\n(.*?)^```$")

// parseExamples returns the examples of one console block's body.
func parseExamples(body string) []example {
	var out []example
	for _, line := range strings.SplitAfter(body, "\n") {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			out = append(out, example{command: strings.TrimSuffix(cmd, "\n")})
		} else if len(out) > 0 {
			out[len(out)-1].output += line
		}
	}
	return out
}

// renderExamples writes examples back as a console block's body.
func renderExamples(examples []example) string {
	var b strings.Builder
	for _, ex := range examples {
		b.WriteString("$ " + ex.command + "\n" + ex.output)
	}
	return b.String()
}

// TestReadmeExamples runs every command of the README's console blocks and
// compares what it prints with what the README shows; -update rewrites the
// README's outputs.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	dir := exampleDir(t)
	blocks := consoleBlock.FindAllSubmatchIndex(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```console block")
	}
	var updated bytes.Buffer
	last := 0
	for _, b := range blocks {
		examples := parseExamples(string(readme[b[2]:b[3]]))
		for i, ex := range examples {
			got := runExample(t, dir, ex.command)
			if got != ex.output && !*testref.Update {
				t.Errorf("README example\n$ %s\nprints\n%s\nwhere the README shows\n%s\n%s", ex.command, got, ex.output, regenerateReadme)
			}
			examples[i].output = got
		}
		updated.Write(readme[last:b[2]])
		updated.WriteString(renderExamples(examples))
		last = b[3]
	}
	updated.Write(readme[last:])
	if *testref.Update {
		if err := os.WriteFile(readmePath, updated.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// exampleDir returns a temporary folder holding a copy of the repository's
// testdata and a bin folder where pitool is this test binary.
func exampleDir(t *testing.T) string {
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-Rp", "../../testdata", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v: %s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, ".bin", "pitool")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runExample runs command with sh in dir and returns what it printed.
func runExample(t *testing.T, dir, command string) string {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, ".bin")+":"+os.Getenv("PATH"), "TZ=UTC", "NO_COLOR=1", "COLUMNS=120",
		"HOME="+dir, "PI_CODING_AGENT_DIR="+filepath.Join(dir, ".pi-agent"))
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", command, err)
	}
	return string(out)
}

// markdownLink matches a link's target in Markdown: ](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadmeLinksResolve checks that every link of the README to a file of
// the repository names one that exists, and that every #anchor names a
// heading of the file it points into.
func TestReadmeLinksResolve(t *testing.T) {
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range markdownLink.FindAllStringSubmatch(string(readme), -1) {
		target := m[1]
		if strings.Contains(target, "://") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		path := readmePath
		if file != "" {
			path = filepath.Join(filepath.Dir(readmePath), file)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("README links to %s: %v", target, err)
			continue
		}
		if anchor != "" && !contains(headingAnchors(string(text)), anchor) {
			t.Errorf("README links to %s: %s has no heading with that anchor", target, file)
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text: lowercase, spaces as dashes, punctuation other than - and _
// dropped. Headings inside code blocks are not headings.
func headingAnchors(text string) []string {
	var anchors []string
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		anchors = append(anchors, b.String())
	}
	return anchors
}
