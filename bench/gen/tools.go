package gen

import (
	"fmt"
	"strings"
)

// toolCall plans one call, chosen among read, bash, grep, edit and write, and the result that
// answers it. Generated strings are counted in s.
func (g *generator) toolCall(s *step) (toolCallBlock, toolResultMessage) {
	call := toolCallBlock{Type: "toolCall", ID: "toolu_01" + g.text.alnum(22)}
	var out string
	var details *diffDetail
	isError := false
	switch n := g.rng.IntN(20); {
	case n < 7:
		call.Name, call.Arguments, out = g.readCall(s)
	case n < 11:
		call.Name, call.Arguments, out, isError = g.bashCall(s)
	case n < 14:
		call.Name, call.Arguments, out = g.grepCall(s)
	case n < 17:
		call.Name, call.Arguments, out, details = g.editCall(s)
	default:
		call.Name, call.Arguments, out = g.writeCall(s)
	}
	result := toolResultMessage{
		Role:       "toolResult",
		ToolCallID: call.ID,
		ToolName:   call.Name,
		Content:    []textBlock{{Type: "text", Text: s.note(out)}},
		Details:    details,
		IsError:    isError,
		DurationMs: 1 + g.rng.IntN(900),
	}
	return call, result
}

// readCall reads a file, sometimes a window of it.
func (g *generator) readCall(s *step) (string, any, string) {
	args := readArgs{Path: s.note(g.text.pick(projectFiles))}
	if g.chance(4) {
		args.Offset, args.Limit = 1+g.rng.IntN(200), 50+g.rng.IntN(200)
	}
	return "read", args, g.text.code(g.text.sized(g.opts.ToolResultBytes))
}

// bashCall runs a command; one in twelve fails with an exit code.
func (g *generator) bashCall(s *step) (string, any, string, bool) {
	args := bashArgs{Command: s.note(g.text.pick(bashCommands))}
	if g.chance(5) {
		args.Timeout = 60 + g.rng.IntN(540)
	}
	out := g.text.grepLines(g.text.sized(g.opts.ToolResultBytes))
	if g.chance(12) {
		return "bash", args, out + "\n\nCommand exited with code 1", true
	}
	return "bash", args, out, false
}

// grepCall searches the project for a word.
func (g *generator) grepCall(s *step) (string, any, string) {
	args := grepArgs{Pattern: s.note(g.text.word()), Path: g.text.pick([]string{".", "src", "internal"})}
	return "grep", args, g.text.grepLines(g.text.sized(g.opts.ToolResultBytes))
}

// editCall replaces one or two lines of a file and reports a diff.
func (g *generator) editCall(s *step) (string, any, string, *diffDetail) {
	args := editArgs{Path: s.note(g.text.pick(projectFiles))}
	var diff strings.Builder
	for range 1 + g.rng.IntN(2) {
		op := editOp{OldText: s.note(g.text.codeLine()), NewText: s.note(g.text.codeLine())}
		args.Edits = append(args.Edits, op)
		fmt.Fprintf(&diff, "-%s\n+%s\n", op.OldText, op.NewText)
	}
	out := fmt.Sprintf("Successfully replaced %d block(s) in %s.", len(args.Edits), args.Path)
	return "edit", args, out, &diffDetail{Diff: s.note(diff.String())}
}

// writeCall writes a whole file.
func (g *generator) writeCall(s *step) (string, any, string) {
	args := writeArgs{Path: s.note(g.text.pick(projectFiles)), Content: s.note(g.text.code(g.text.sized(g.opts.ToolResultBytes / 2)))}
	return "write", args, fmt.Sprintf("Successfully wrote %d bytes to %s", len(args.Content), args.Path)
}
