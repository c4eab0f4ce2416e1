package repair

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says how bad a finding is.
type Severity string

// The severities. Errors lose or hide data when Pi loads the file; warnings
// are damage Pi tolerates; notes are information (a legacy format, an
// interrupted last turn) and do not make validate fail.
const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
)

// Finding is one problem in a session file.
type Finding struct {
	Code     string   `json:"code"`     // stable, e.g. "line.truncated"
	Severity Severity `json:"severity"` // error, warning or info
	File     string   `json:"file"`
	Line     int      `json:"line"`   // 1-based physical line, 0 for the whole file
	Offset   int64    `json:"offset"` // byte offset in the decompressed stream
	Message  string   `json:"message"`
	Hint     string   `json:"hint"` // the pitool repair invocation that fixes it
}

// Report is the validation of one file.
type Report struct {
	File       string         `json:"file"`
	Version    int            `json:"version"` // the header's format version (3 when there is none)
	Lines      int            `json:"lines"`
	Entries    int            `json:"entries"`
	Bytes      int64          `json:"bytes"`
	Findings   []Finding      `json:"findings"`
	Suppressed map[string]int `json:"suppressed,omitempty"` // findings left out per code, beyond ValidateOptions.MaxPerCode
}

// HasErrors reports whether any finding is an error.
func (r *Report) HasErrors() bool { return r.count(SevError) > 0 }

// HasProblems reports whether any finding is an error or a warning: the
// findings that make validate exit 1.
func (r *Report) HasProblems() bool { return r.count(SevError)+r.count(SevWarning) > 0 }

// Count returns the number of findings of a severity, suppressed ones included.
func (r *Report) Count(sev Severity) int { return r.count(sev) }

func (r *Report) count(sev Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == sev {
			n++
		}
	}
	for code, k := range r.Suppressed {
		if codes[code].sev == sev {
			n += k
		}
	}
	return n
}

// Codes returns the distinct codes found, in the order first met.
func (r *Report) Codes() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range r.Findings {
		if !seen[f.Code] {
			seen[f.Code] = true
			out = append(out, f.Code)
		}
	}
	return out
}

// fix names which repair flags fix a code.
type fix uint8

const (
	fixRepair     fix = iota // plain pitool repair
	fixCloseCalls            // pitool repair --close-tool-calls
	fixNone                  // repair leaves it; the hint says what to do
)

type codeInfo struct {
	sev  Severity
	fix  fix
	note string // for fixNone: what to do instead
}

// codes lists every finding code with its severity and how it is fixed.
var codes = map[string]codeInfo{
	"header.missing":         {sev: SevError},
	"header.not-first":       {sev: SevError},
	"header.duplicate":       {sev: SevError},
	"header.invalid":         {sev: SevError},
	"header.version-unknown": {sev: SevError, fix: fixNone, note: "pitool reads versions 1 to 3; check which program wrote this file"},
	"header.legacy-version":  {sev: SevInfo},

	"line.invalid-json": {sev: SevError},
	"line.truncated":    {sev: SevError},
	"line.joined":       {sev: SevError},
	"line.garbage":      {sev: SevError},
	"line.not-object":   {sev: SevError},
	"line.nul":          {sev: SevError},
	"line.invalid-utf8": {sev: SevWarning},
	"line.bom":          {sev: SevWarning},
	"line.crlf":         {sev: SevWarning},
	"line.blank":        {sev: SevWarning},
	"line.unterminated": {sev: SevWarning},

	"ids.missing":             {sev: SevError},
	"ids.duplicate-identical": {sev: SevWarning},
	"ids.duplicate-conflict":  {sev: SevError},

	"parents.dangling":    {sev: SevError},
	"parents.cycle":       {sev: SevError},
	"parents.after-child": {sev: SevError},

	"tools.orphan-result":     {sev: SevWarning},
	"tools.unanswered":        {sev: SevWarning, fix: fixCloseCalls},
	"tools.unanswered-at-end": {sev: SevInfo, fix: fixCloseCalls},
	"tools.name-mismatch":     {sev: SevWarning},

	"request.orphan-result":        {sev: SevError},
	"request.call-in-earlier-turn": {sev: SevError},
	"request.answered-twice":       {sev: SevError},
	"request.other-leaf":           {sev: SevInfo, fix: fixNone, note: "Pi sends this request only if the user goes back to that leaf, and accepts context edits only on its active branch; resume there in Pi and run pitool repair again"},

	"compaction.first-kept-missing":  {sev: SevError},
	"compaction.first-kept-off-path": {sev: SevError},

	"context-edit.target-missing":      {sev: SevWarning, fix: fixNone, note: "Pi ignores this edit; delete the line by hand if it is unwanted"},
	"context-edit.target-off-path":     {sev: SevWarning, fix: fixNone, note: "Pi applies an edit only on its own branch; delete the line by hand if it is unwanted"},
	"context-edit.target-not-editable": {sev: SevWarning, fix: fixNone, note: "only user, assistant, toolResult and custom_message entries can be edited; delete the line by hand if it is unwanted"},
	"label.target-missing":             {sev: SevWarning, fix: fixNone, note: "the label points at nothing; delete the line by hand if it is unwanted"},
	"branch-summary.from-missing":      {sev: SevWarning, fix: fixNone, note: "the summary still counts; only its link back to the branch is lost"},
	"timestamp.invalid":                {sev: SevWarning, fix: fixNone, note: "Pi shows such times as invalid dates; correct the value by hand"},
	"message.role-missing":             {sev: SevWarning, fix: fixNone, note: "Pi passes this message on as it is; correct it by hand"},
	"message.role-unknown":             {sev: SevWarning, fix: fixNone, note: "Pi passes this message on as it is; correct it by hand"},
	"message.content-type":             {sev: SevWarning, fix: fixNone, note: "Pi may fail on this message; correct it by hand"},
}

// Codes lists every finding code validate can report, sorted.
func Codes() []string {
	out := make([]string, 0, len(codes))
	for c := range codes {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Fixable reports whether pitool repair (with closeToolCalls for the tool
// codes) fixes a code.
func Fixable(code string, closeToolCalls bool) bool {
	switch codes[code].fix {
	case fixRepair:
		return true
	case fixCloseCalls:
		return closeToolCalls
	}
	return false
}

// hint returns the exact command that fixes code in file.
func hint(code, file string) string {
	info := codes[code]
	target := shellQuote(file)
	switch {
	case info.fix == fixNone:
		return "pitool repair does not change this: " + info.note
	case file == "-":
		target = "-o repaired.jsonl -"
	default:
		target = "--in-place " + target
	}
	if info.fix == fixCloseCalls {
		return "pitool repair --close-tool-calls " + target
	}
	return "pitool repair " + target
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ':' || r == '@' || r == ',' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// findings collects a report's findings, capping each code.
type findings struct {
	report *Report
	max    int
	count  map[string]int
}

func (fs *findings) add(code string, line int, offset int64, format string, args ...any) {
	info, ok := codes[code]
	if !ok {
		panic("repair: unknown finding code " + code)
	}
	fs.count[code]++
	if fs.max > 0 && fs.count[code] > fs.max {
		if fs.report.Suppressed == nil {
			fs.report.Suppressed = map[string]int{}
		}
		fs.report.Suppressed[code]++
		return
	}
	fs.report.Findings = append(fs.report.Findings, Finding{
		Code: code, Severity: info.sev, File: fs.report.File, Line: line, Offset: offset,
		Message: fmt.Sprintf(format, args...), Hint: hint(code, fs.report.File),
	})
}
