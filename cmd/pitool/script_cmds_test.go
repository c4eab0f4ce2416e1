package main

import (
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the commands the stories have beyond testscript's own.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"maxwidth": maxWidth,
}

// maxWidth is "maxwidth N stdout|stderr": every line of the last command's
// output takes at most N terminal columns (wide runes count two). With !, some
// line is wider.
func maxWidth(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || (args[1] != "stdout" && args[1] != "stderr") {
		ts.Fatalf("usage: maxwidth N stdout|stderr")
	}
	limit, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("maxwidth: %v", err)
	}
	widest, line := 0, ""
	for _, l := range strings.Split(ts.ReadFile(args[1]), "\n") {
		if w := runewidth.StringWidth(l); w > widest {
			widest, line = w, l
		}
	}
	switch {
	case neg && widest <= limit:
		ts.Fatalf("no line of %s is wider than %d columns", args[1], limit)
	case !neg && widest > limit:
		ts.Fatalf("%s has a line of %d columns, more than %d:\n%s", args[1], widest, limit, line)
	}
}
