package repair_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pitool/pitool/repair"
)

const (
	hdr = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`
	ts  = `"timestamp":"2026-01-01T00:00:01.000Z"`
)

// ent is an entry line; parent "" is null.
func ent(id, parent, rest string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"type":%s,"id":"%s","parentId":%s,%s}`, rest[:strings.IndexByte(rest, ',')], id, p, ts+rest[strings.IndexByte(rest, ','):])
}

func user(id, parent string) string {
	return ent(id, parent, `"message","message":{"role":"user","content":"hi","timestamp":1}`)
}

func asst(id, parent, callID, tool string) string {
	return ent(id, parent, `"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"`+callID+`","name":"`+tool+`","arguments":{}}],"stopReason":"toolUse","timestamp":1}`)
}

func result(id, parent, callID, tool string) string {
	return ent(id, parent, `"message","message":{"role":"toolResult","toolCallId":"`+callID+`","toolName":"`+tool+`","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1}`)
}

func file(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// codeSamples holds, for every code, a small session that has it: the true
// positives of each check. The valid corpus files are the negatives
// (TestValidCorpus).
var codeSamples = map[string]string{
	"header.missing":         file(user("a", "")),
	"header.not-first":       file(user("a", ""), hdr),
	"header.duplicate":       file(hdr, user("a", ""), hdr),
	"header.invalid":         file(`{"type":"session","version":3,"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`, user("a", "")),
	"header.version-unknown": file(strings.Replace(hdr, `"version":3`, `"version":9`, 1), user("a", "")),
	"header.legacy-version":  file(strings.Replace(hdr, `"version":3,`, "", 1), `{"type":"message",`+ts+`,"message":{"role":"user","content":"hi"}}`),

	"line.invalid-json": file(hdr, `{"type":"message",}`, user("a", "")),
	"line.truncated":    hdr + "\n" + user("a", "") + "\n" + `{"type":"message","id":"b","par`,
	"line.joined":       file(hdr, user("a", "")+user("b", "a")),
	"line.garbage":      file(hdr, "\x17garbage", user("a", "")),
	"line.not-object":   file(hdr, "[1,2]", user("a", "")),
	"line.nul":          file(hdr, user("a", "")) + "\x00\x00\x00",
	"line.invalid-utf8": file(hdr, strings.Replace(user("a", ""), "hi", "h\xffi", 1)),
	"line.bom":          "\xEF\xBB\xBF" + file(hdr, user("a", "")),
	"line.crlf":         hdr + "\r\n" + user("a", "") + "\r\n",
	"line.blank":        file(hdr, "", user("a", "")),
	"line.unterminated": hdr + "\n" + user("a", ""),

	"ids.missing":             file(hdr, `{"type":"custom","customType":"x","parentId":null,`+ts+`}`),
	"ids.duplicate-identical": file(hdr, user("a", ""), user("a", "")),
	"ids.duplicate-conflict":  file(hdr, user("a", ""), user("b", "a"), user("a", "b")),

	"parents.dangling":    file(hdr, user("a", ""), user("b", "zz")),
	"parents.cycle":       file(hdr, user("a", "b"), user("b", "a")),
	"parents.after-child": file(hdr, user("a", "b"), user("b", "")),

	"tools.orphan-result":     file(hdr, user("a", ""), result("b", "a", "c1", "read")),
	"tools.unanswered":        file(hdr, user("a", ""), asst("b", "a", "c1", "read"), user("c", "b")),
	"tools.unanswered-at-end": file(hdr, user("a", ""), asst("b", "a", "c1", "read")),
	"tools.name-mismatch":     file(hdr, user("a", ""), asst("b", "a", "c1", "read"), result("c", "b", "c1", "bash")),

	"request.orphan-result":        file(hdr, user("a", ""), asst("b", "a", "c1", "read"), result("c", "b", "c1", "read"), ent("d", "c", `"context_edit","targetId":"b","replacement":null`)),
	"request.call-in-earlier-turn": file(hdr, user("a", ""), asst("b", "a", "c1", "read"), user("u", "b"), result("c", "u", "c1", "read")),
	"request.answered-twice":       file(hdr, user("a", ""), asst("b", "a", "c1", "read"), result("c", "b", "c1", "read"), result("d", "c", "c1", "read")),
	"request.other-leaf":           file(hdr, user("a", ""), asst("b", "a", "c1", "read"), result("c", "b", "c1", "read"), ent("d", "c", `"context_edit","targetId":"b","replacement":null`), user("x", "c")),

	"compaction.first-kept-missing":  file(hdr, user("a", ""), ent("b", "a", `"compaction","summary":"s","firstKeptEntryId":"zz","tokensBefore":5`)),
	"compaction.first-kept-off-path": file(hdr, user("a", ""), user("x", ""), ent("b", "a", `"compaction","summary":"s","firstKeptEntryId":"x","tokensBefore":5`)),

	"context-edit.target-missing":      file(hdr, user("a", ""), ent("b", "a", `"context_edit","targetId":"zz","replacement":null`)),
	"context-edit.target-off-path":     file(hdr, user("a", ""), user("x", ""), ent("b", "a", `"context_edit","targetId":"x","replacement":null`)),
	"context-edit.target-not-editable": file(hdr, ent("a", "", `"model_change","provider":"p","modelId":"m"`), ent("b", "a", `"context_edit","targetId":"a","replacement":null`)),
	"label.target-missing":             file(hdr, user("a", ""), ent("b", "a", `"label","targetId":"zz","label":"l"`)),
	"branch-summary.from-missing":      file(hdr, user("a", ""), ent("b", "a", `"branch_summary","fromId":"zz","summary":"s"`)),
	"timestamp.invalid":                file(hdr, strings.Replace(user("a", ""), "2026-01-01T00:00:01.000Z", "yesterday", 1)),
	"message.role-missing":             file(hdr, ent("a", "", `"message","message":{"content":"hi"}`)),
	"message.role-unknown":             file(hdr, ent("a", "", `"message","message":{"role":"robot","content":"hi"}`)),
	"message.content-type":             file(hdr, ent("a", "", `"message","message":{"role":"assistant","content":"hi"}`)),
}

// TestCodeSamples: every code has a sample, validate finds it there with a
// hint, and repair (with --close-tool-calls) removes every code it fixes,
// keeping every byte, idempotently.
func TestCodeSamples(t *testing.T) {
	for _, code := range repair.Codes() {
		sample, ok := codeSamples[code]
		if !ok {
			t.Errorf("code %s has no sample", code)
			continue
		}
		rep := validateBytes(t, []byte(sample))
		if !hasCode(rep, code) {
			t.Errorf("%s: not found in its sample; found %v", code, rep.Codes())
			continue
		}
		for _, f := range rep.Findings {
			if f.Code == code && !strings.HasPrefix(f.Hint, "pitool repair ") {
				t.Errorf("%s: hint %q does not start with pitool repair", code, f.Hint)
			}
		}
		opts := repair.Options{CloseToolCalls: true}
		checkRepairProperties(t, code, []byte(sample), opts)
		out, _, _ := repairBytes(t, []byte(sample), opts)
		if after := validateBytes(t, out); repair.Fixable(code, true) && hasCode(after, code) {
			t.Errorf("%s: still there after repair:\n%s", code, out)
		}
	}
}

// TestEscapedToolCallType: a content block whose type is written with an
// escape is a tool call, as Pi's JSON.parse reads it (pi-ref's provider
// view answers it with "No result provided").
func TestEscapedToolCallType(t *testing.T) {
	call := strings.Replace(asst("b", "a", "c1", "read"), `"type":"toolCall"`, `"type":"toolC\u0061ll"`, 1)
	rep := validateBytes(t, []byte(file(hdr, user("a", ""), call, user("c", "b"))))
	if !hasCode(rep, "tools.unanswered") {
		t.Fatalf("the escaped tool call was not seen: %v", rep.Codes())
	}
}
