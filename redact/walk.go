package redact

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// freeForm reports whether key starts data whose shape belongs to a tool or
// an extension: inside it no key has Pi's meaning (a "type" there is data,
// and a signature there is not dropped).
func freeForm(key []byte) bool {
	switch string(key) {
	case "arguments", "details", "data", "input", "sections":
		return true
	}
	return false
}

// opaque reports whether key holds a provider's signature; --drop-signatures
// removes them.
func opaque(key []byte) bool {
	switch string(key) {
	case "thinkingSignature", "thoughtSignature", "textSignature":
		return true
	}
	return false
}

// edit replaces line[start:end] with repl.
type edit struct {
	start, end int
	repl       []byte
}

// seg is one step of a JSON path: an object key (raw bytes a:b of the line,
// b > 0, or renames[renamed-1] when the key held a secret) or an array
// index. It is 16 bytes, as a line nested a million deep has a million.
type seg struct {
	a, b, idx int32 // a line is at most jsonl.MaxLineBytes
	renamed   int32 // 0: the key is as written
}

// memberKey is one key of an object being walked: its raw bytes a:b and,
// when it held a secret, its new text and the index of its edit.
type memberKey struct {
	a, b  int
	edit  int // -1: unchanged
	final string
}

// hit is a replacement whose finding waits for the path to be known.
type hit struct{ rule, secret, placeholder string }

// walker rewrites one line: it visits every string, scans those the
// prefilter points at, and collects edits and findings.
type walker struct {
	r         *Redactor
	sc        *scanner
	line      []byte
	tokens    jsonl.Walker // reads the line; its stack is reused from line to line
	muted     int          // >0 while walking a value that must not change
	path      []seg
	keys      []memberKey // keys of the objects being walked, outermost first
	levels    []level     // the arrays and objects being walked, outermost first
	renames   []string    // the new text of keys that held secrets
	objects   []object    // the state of the objects among them
	hits      []hit
	edits     []edit
	findings  []Finding
	entryType []byte // the entry's "type" value, once read
}

// visitString scans the string literal line[a:b] and records an edit when
// it held secrets; it returns the new decoded text and whether it changed.
// The prefilter runs on the decoded bytes; only a string with keyword hits
// is turned into a Go string for the regexes. A key's findings are recorded
// after its new text is on the path, so no path ever shows the secret.
func (w *walker) visitString(a, b int, key bool) (string, bool) {
	if w.muted > 0 {
		return "", false
	}
	raw := w.line[a+1 : b-1]
	if len(raw) <= maxWord && w.r.clean[string(raw)] {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		w.sc.decoded, _ = jsonl.AppendDecodedString(w.sc.decoded[:0], w.line[a:b])
		raw = w.sc.decoded
	}
	spans := w.sc.scanText(raw)
	if len(spans) == 0 {
		return "", false
	}
	w.hits = w.hits[:0]
	out := w.r.replace(string(raw), spans, func(rule, secret, placeholder string) {
		w.hits = append(w.hits, hit{rule, secret, placeholder})
	})
	w.edits = append(w.edits, edit{a, b, jsonl.AppendString(nil, out)})
	if key {
		w.renames = append(w.renames, out)
		w.path[len(w.path)-1].renamed = int32(len(w.renames))
	}
	for _, h := range w.hits {
		w.finding(h.rule, h.secret, h.placeholder)
	}
	return out, true
}

// finding records one replaced secret at the current path.
func (w *walker) finding(rule, secret, placeholder string) {
	entryType, _ := jsonl.DecodeString(w.entryType)
	w.findings = append(w.findings, Finding{
		Rule: rule, JSONPath: w.jsonPath(secret, placeholder), EntryType: entryType,
		Preview: mask(secret), Placeholder: placeholder,
	})
}

// jsonPath writes the current path. Keys are shown as redacted; a key that
// still holds secret (found only in the value) shows placeholder instead.
func (w *walker) jsonPath(secret, placeholder string) string {
	var sb strings.Builder
	sb.WriteString("$")
	for _, s := range w.path {
		if s.b == 0 {
			sb.WriteString("[" + strconv.Itoa(int(s.idx)) + "]")
			continue
		}
		k, _ := jsonl.DecodeString(w.line[s.a:s.b])
		if s.renamed > 0 {
			k = w.renames[s.renamed-1]
		}
		if secret != "" {
			k = strings.ReplaceAll(k, secret, placeholder)
		}
		if isIdentifier(k) {
			sb.WriteString("." + k)
		} else {
			sb.WriteString("[" + string(jsonl.QuoteString(k)) + "]")
		}
	}
	return sb.String()
}

func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) || (i == 0 && s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return s != ""
}
