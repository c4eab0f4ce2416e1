package compactor

import (
	"context"
	"fmt"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// Limits of the extractive summary, so that a huge session still gives a
// summary of a few kilobytes.
const (
	extractMaxItems = 12  // items kept per list
	extractMaxChars = 240 // characters kept per item
)

// noRequest stands for the next step when the messages hold no user request.
const noRequest = "Continue with the user's next request"

// Extractive fills Pi's structured summary format from the messages
// themselves: goals from the user's requests, files read and modified,
// commands run, errors seen, and the last request as the next step. It is
// offline and deterministic.
type Extractive struct{}

// facts are what the extractive summarizer collects from messages.
type facts struct {
	requests, commands, errors, notes []string
	files                             FileOps
}

// Summarize implements Summarizer.
func (Extractive) Summarize(_ context.Context, req Request) (Response, error) {
	f := collectFacts(req.Messages)
	if req.Kind == TurnPrefix {
		return Response{Text: f.turnPrefix()}, nil
	}
	text := f.structured(req.Instructions)
	if req.PreviousSummary != "" {
		text = mergeSummaries(req.PreviousSummary, text)
	}
	return Response{Text: text}, nil
}

func collectFacts(msgs []jsonl.Object) *facts {
	f := &facts{}
	for _, m := range msgs {
		f.files.AddFromMessage(m)
		switch m.String("role") {
		case jsonl.RoleUser:
			f.requests = appendItem(f.requests, contentText(m.Get("content"), "\n"))
		case jsonl.RoleAssistant:
			f.addCommands(m)
		case jsonl.RoleToolResult:
			if jsonl.Truthy(m.Get("isError")) {
				f.errors = appendItem(f.errors, m.String("toolName")+": "+strings.Join(strings.Fields(contentText(m.Get("content"), "\n")), " "))
			}
		case jsonl.RoleBashExecution:
			f.addBash(m)
		case jsonl.RoleBranchSummary, jsonl.RoleCompactionSummary:
			f.notes = appendItem(f.notes, "Earlier summary: "+m.String("summary"))
		}
	}
	return f
}

func (f *facts) addCommands(m jsonl.Object) {
	calls, _ := jsonl.ToolCalls(m.Get("content"))
	for _, c := range calls {
		if c.Name != "bash" {
			continue
		}
		if args, err := jsonl.ParseObject(c.Arguments); err == nil {
			f.commands = appendItem(f.commands, args.String("command"))
		}
	}
}

func (f *facts) addBash(m jsonl.Object) {
	f.commands = appendItem(f.commands, m.String("command"))
	if code := m.Get("exitCode"); failedExit(code) {
		f.errors = appendItem(f.errors, fmt.Sprintf("`%s` exited with code %s", m.String("command"), code))
	}
}

// failedExit reports whether a bash execution's exitCode is a number other
// than 0, read as JSON.parse reads it (0.0 and -0 are 0); absent and null are
// no failure.
func failedExit(code jsonl.RawMessage) bool {
	var n *float64
	return jsonl.Unmarshal(code, &n) == nil && n != nil && *n != 0
}

// appendItem adds the first line of text, clipped, unless empty or already there.
func appendItem(list []string, text string) []string {
	line := clipItem(firstLine(text))
	if line == "" {
		return list
	}
	for _, x := range list {
		if x == line {
			return list
		}
	}
	return append(list, line)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func clipItem(s string) string {
	if jsonl.UTF16Len(s) <= extractMaxChars {
		return s
	}
	return strings.TrimSpace(sliceHead(s, extractMaxChars)) + "…"
}

// lastN keeps the first item and the most recent ones, within extractMaxItems.
func lastN(items []string) []string {
	if len(items) <= extractMaxItems {
		return items
	}
	return append([]string{items[0]}, items[len(items)-extractMaxItems+1:]...)
}

func bullets(items []string, prefix, none string) string {
	if len(items) == 0 {
		return prefix + none
	}
	var b strings.Builder
	for i, it := range lastN(items) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(prefix + it)
	}
	return b.String()
}

func (f *facts) lastRequest() string {
	if len(f.requests) == 0 {
		return noRequest
	}
	return f.requests[len(f.requests)-1]
}

// structured is Pi's summary format, filled from the facts.
func (f *facts) structured(instructions string) string {
	lists := f.files.Lists()
	constraints := "- (none)"
	if instructions != "" {
		constraints = "- Focus: " + clipItem(firstLine(instructions))
	}
	var done []string
	for _, p := range lists.ModifiedFiles {
		done = append(done, "Modified "+p)
	}
	for _, c := range f.commands {
		done = append(done, "Ran `"+c+"`")
	}
	return strings.Join([]string{
		"## Goal\n" + bullets(f.requests, "- ", "(no user request in these messages)"),
		"## Constraints & Preferences\n" + constraints,
		"## Progress\n### Done\n" + bullets(done, "- [x] ", "(nothing recorded)") +
			"\n\n### In Progress\n- [ ] " + f.lastRequest() +
			"\n\n### Blocked\n" + bullets(f.errors, "- ", "(none)"),
		"## Key Decisions\n- **Extractive summary**: written by pitool from the messages, without a model",
		"## Next Steps\n1. " + f.lastRequest(),
		"## Critical Context\n" + bullets(append(prefixed("Read ", lists.ReadFiles), f.notes...), "- ", "(none)"),
	}, "\n\n")
}

func prefixed(prefix string, items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = prefix + it
	}
	return out
}

// turnPrefix is Pi's turn-prefix checkpoint format, filled from the facts.
func (f *facts) turnPrefix() string {
	var progress []string
	for _, c := range f.commands {
		progress = append(progress, "Ran `"+c+"`")
	}
	lists := f.files.Lists()
	progress = append(progress, prefixed("Modified ", lists.ModifiedFiles)...)
	context := append(prefixed("Read ", lists.ReadFiles), prefixed("Error: ", f.errors)...)
	request := "(not in these messages)"
	if len(f.requests) > 0 {
		request = f.requests[0]
	}
	return "## Original Request\n" + request +
		"\n\n## Progress So Far\n" + bullets(progress, "- ", "(none)") +
		"\n\n## Context Needed to Continue\n" + bullets(context, "- ", "(none)")
}

// mergeSummaries keeps every line of the previous summary and adds the new
// summary's lines under the same headings, as Pi's update prompt asks.
func mergeSummaries(prev, next string) string {
	order, sections := splitSections(prev)
	nextOrder, nextSections := splitSections(next)
	for _, h := range nextOrder {
		for _, line := range nextSections[h] {
			if !containsLine(sections[h], line) && !isPlaceholder(line) {
				sections[h] = append(sections[h], line)
			}
		}
	}
	return renderSections(canonicalOrder(append(order, nextOrder...)), sections)
}

// summaryHeadings are the headings of Pi's summary format, in its order.
var summaryHeadings = []string{"", "## Goal", "## Constraints & Preferences", "## Progress", "## Progress\n### Done",
	"## Progress\n### In Progress", "## Progress\n### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"}

// canonicalOrder puts the headings of Pi's format first, in its order, then
// any others in the order first seen.
func canonicalOrder(keys []string) []string {
	seen := map[string]bool{}
	for _, k := range keys {
		seen[k] = true
	}
	var out []string
	for _, h := range summaryHeadings {
		if seen[h] {
			out = append(out, h)
			delete(seen, h)
		}
	}
	for _, k := range keys {
		if seen[k] {
			out = append(out, k)
			delete(seen, k)
		}
	}
	return out
}

// splitSections splits a summary at its "## " and "### " headings; a section's
// key is its "## " heading, plus "\n" and its "### " heading inside one.
func splitSections(s string) ([]string, map[string][]string) {
	order, sections := []string{""}, map[string][]string{"": nil}
	h2, cur := "", ""
	for _, line := range summaryLines(s) {
		switch {
		case strings.HasPrefix(line, "## "):
			h2, cur = line, line
		case strings.HasPrefix(line, "### ") && h2 != "":
			cur = h2 + "\n" + line
		default:
			if strings.TrimSpace(line) != "" && !containsLine(sections[cur], line) {
				sections[cur] = append(sections[cur], line)
			}
			continue
		}
		if _, ok := sections[cur]; !ok {
			order = append(order, cur)
			sections[cur] = nil
		}
	}
	return order, sections
}

func renderSections(order []string, sections map[string][]string) string {
	var parts []string
	printed := map[string]bool{}
	for _, key := range order {
		head := key
		if h2, h3, ok := strings.Cut(key, "\n"); ok {
			head = h3
			if !printed[h2] {
				head = h2 + "\n" + h3
			}
			printed[h2] = true
		} else if printed[key] {
			head = ""
		}
		printed[key] = true
		lines := sections[key]
		if len(lines) == 0 && key != "" && key != "## Progress" {
			lines = []string{"- (none)"}
		}
		block := strings.TrimSpace(head + "\n" + strings.Join(lines, "\n"))
		if n := len(parts); n > 0 && isBareH2(parts[n-1]) && strings.HasPrefix(block, "###") {
			parts[n-1] += "\n" + block
		} else if block != "" {
			parts = append(parts, block)
		}
	}
	return strings.Join(parts, "\n\n")
}

// summaryLines splits a summary into lines without its file lists and split
// turn separators, which the final summary adds again.
func summaryLines(s string) []string {
	var out []string
	skip := false
	for _, line := range strings.Split(s, "\n") {
		switch line {
		case "<read-files>", "<modified-files>":
			skip = true
		case "</read-files>", "</modified-files>":
			skip = false
		case "---", "**Turn Context (split turn):**":
		default:
			if !skip {
				out = append(out, line)
			}
		}
	}
	return out
}

func isBareH2(block string) bool {
	return strings.HasPrefix(block, "## ") && !strings.Contains(block, "\n")
}

func containsLine(lines []string, line string) bool {
	for _, l := range lines {
		if l == line {
			return true
		}
	}
	return false
}

func isPlaceholder(line string) bool {
	for _, p := range []string{"(none)", "(nothing recorded)", "(no user request", noRequest} {
		if strings.Contains(line, p) {
			return true
		}
	}
	return false
}
