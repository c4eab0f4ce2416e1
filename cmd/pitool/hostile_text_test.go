package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pitool/pitool/internal/termtext"
)

// hostileSession is a session whose every printed field carries what a
// terminal obeys: colour, screen clearing, an OSC 8 hyperlink and an OSC 0
// window title, a carriage return, BEL, a C1 CSI, a right-to-left override,
// in the cwd, the name, the first message, a tool name, the model, tool
// output, a label and an entry type.
const hostileSession = `{"type":"session","version":3,"id":"01a22eed-84e2-746d-a4fb-4bc77e29deed","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/\u001b[31mred\u001b]8;;https://evil.example/\u0007x"}
{"type":"session_info","id":"aaaaaaa1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":"name\u001b[2J\u001b[H\u001b]0;pwned\u0007"}
{"type":"message","id":"aaaaaaa2","parentId":"aaaaaaa1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"first \u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007 over\rwrite\u0007 \u009b2J \u202etxt.exe","timestamp":1}}
{"type":"message","id":"aaaaaaa3","parentId":"aaaaaaa2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok\u001b[5m"},{"type":"toolCall","id":"c1","name":"bash\u001b[2J","arguments":{}}],"provider":"p","model":"m\u001b[8m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":2}}
{"type":"message","id":"aaaaaaa4","parentId":"aaaaaaa3","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash\u001b[2J","content":[{"type":"text","text":"\u001b[31mred\u001b[0m\u001b[2J\u001b[3J"}],"isError":false,"timestamp":3}}
{"type":"label","id":"aaaaaaa5","parentId":"aaaaaaa4","timestamp":"2026-01-01T00:00:05.000Z","targetId":"aaaaaaa2","label":"label\u001b[7m\u202e"}
{"type":"custom\u001b[2J","id":"aaaaaaa6","parentId":"aaaaaaa5","timestamp":"2026-01-01T00:00:06.000Z"}
not json \u001b[2J` + "\x1b[2J\x07\r" + `
`

// hostileName is a real file name with a newline, a tab, an escape and a
// right-to-left override in it.
const hostileName = "evil\nname\tx\x1b[2J\u202egpj.jsonl"

// obeyed returns the first thing in out that a terminal would act on (or a
// table would break on), other than the newline ending a line; "" if none.
func obeyed(out string) string {
	if !utf8.ValidString(out) {
		return "bytes that are not UTF-8"
	}
	for _, r := range out {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// hostileFolder writes hostileSession under hostileName, and a plain copy
// beside it, in a new folder; it returns the folder and the hostile file.
func hostileFolder(t *testing.T) (dir, file string) {
	dir = t.TempDir()
	file = filepath.Join(dir, hostileName)
	for _, f := range []string{file, filepath.Join(dir, "plain.jsonl")} {
		if err := os.WriteFile(f, []byte(hostileSession), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PI_CODING_AGENT_DIR", t.TempDir())
	return dir, file
}

// TestTerminalOutputShowsSessionControls runs every command that prints
// session text in text mode on a hostile session in a hostile file name and
// checks that stdout and stderr hold no control a terminal obeys: each is
// shown as an escape instead. (nightly's stdout is its JSON report, where
// JSON escapes C0 controls; only its stderr is text.)
func TestTerminalOutputShowsSessionControls(t *testing.T) {
	dir, file := hostileFolder(t)
	for _, c := range []struct {
		args       []string
		jsonStdout bool
	}{
		{args: []string{"ls", dir}}, {args: []string{"info", file}}, {args: []string{"tree", file}},
		{args: []string{"tree", "--ids", "--width", "0", file}}, {args: []string{"validate", file}},
		{args: []string{"validate", dir}}, {args: []string{"compact", "--plan", "--even-if-not-due", dir}},
		{args: []string{"repair", "--dry-run", file}},
		{args: []string{"nightly", "--dry-run", "--min-idle", "0", dir}, jsonStdout: true},
	} {
		_, out, errOut := runPitool(context.Background(), c.args...)
		streams := map[string]string{"stderr": errOut}
		if !c.jsonStdout {
			streams["stdout"] = out
		}
		for stream, text := range streams {
			if what := obeyed(text); what != "" {
				t.Errorf("pitool %s: %s holds %s:\n%q", strings.Join(c.args, " "), stream, what, text)
			}
		}
	}
}

// TestTablesKeepOneRowPerFile checks that a file name with a newline, a tab
// and escapes in it stays on one row of the ls and compact tables, shown
// escaped, and that the table's columns still line up: the plain file's row
// and the hostile one start their last columns at the same place.
func TestTablesKeepOneRowPerFile(t *testing.T) {
	dir, file := hostileFolder(t)
	shown := termtext.Visible(file)
	for _, c := range []struct {
		args  []string
		lines int    // header, two rows, and compact's totals line
		col   string // the header of the column holding the path
	}{
		{[]string{"ls", dir}, 3, "PATH"},
		{[]string{"compact", "--plan", "--even-if-not-due", dir}, 4, "FILE"},
	} {
		code, out, errOut := runPitool(context.Background(), c.args...)
		if code != 0 {
			t.Fatalf("pitool %v: exit %d: %s", c.args, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != c.lines {
			t.Fatalf("pitool %v: %d lines, want %d:\n%s", c.args, len(lines), c.lines, out)
		}
		at := strings.Index(lines[0], c.col)
		rows := 0
		for _, l := range lines[1:3] {
			if strings.Index(l, shown) == at || strings.Index(l, filepath.Join(dir, "plain.jsonl")) == at {
				rows++
			}
		}
		if rows != 2 {
			t.Errorf("pitool %v: the paths are not both in column %s (offset %d), shown as %q:\n%s", c.args, c.col, at, shown, out)
		}
	}
}
